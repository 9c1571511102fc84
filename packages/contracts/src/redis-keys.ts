/**
 * Every Redis key of the system is built here, so management (writer) and replacement (reader) cannot
 * drift apart. Layout: `<prefix>{p:<advId>}:<suffix>` for everything of one partner — the hash tag
 * puts all of a partner's keys in one Redis Cluster slot, so the allocation script and the
 * projection MULTI are valid on a cluster — and `<prefix>tracking-numbers` for the one global structure,
 * the tracking-number → partner index. docs/redis-keys.md describes every key.
 */

/** REDIS_KEY_PREFIX when unset (both services read the same variable and must agree). */
export const DEFAULT_KEY_PREFIX = '';

const MAX_ADV_ID_LENGTH = 100;
// A brace would end or open the hash tag early; control characters and whitespace have no place in
// an account name and make keys unreadable in redis-cli.
const FORBIDDEN_IN_ADV_ID = /[{}\s\p{Cc}]/u;
const FORBIDDEN_IN_PREFIX = /[{}\s]/;

/** True when the name can be a partner's advId inside a key. Management refuses other names. */
export function isKeySafeAdvId(advId: unknown): advId is string {
  return (
    typeof advId === 'string' &&
    advId.length > 0 &&
    advId.length <= MAX_ADV_ID_LENGTH &&
    !FORBIDDEN_IN_ADV_ID.test(advId)
  );
}

export function assertKeyPrefix(prefix: string): string {
  if (FORBIDDEN_IN_PREFIX.test(prefix)) {
    throw new RangeError(`Redis key prefix must not contain braces or whitespace: ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

function assertAdvId(advId: string): string {
  if (!isKeySafeAdvId(advId)) throw new RangeError(`not a key-safe advId: ${JSON.stringify(advId)}`);
  return advId;
}

/** `{p:<advId>}`: the Redis Cluster hash tag shared by all keys of one partner. */
export function partnerHashTag(advId: string): string {
  return `{p:${assertAdvId(advId)}}`;
}

/** The global tracking-number → partner index (a hash); the only key without a partner tag. */
export function numberIndexKey(prefix: string): string {
  return `${assertKeyPrefix(prefix)}tracking-numbers`;
}

export interface PartnerKeys {
  readonly advId: string;
  /** Hash: the partner's settings (PartnerConfig codec). Written by management. */
  readonly config: string;
  /**
   * Sorted set: member = pool number (E.164), score = the instant (epoch ms) it is free from.
   * Management adds members with score 0 (ZADD NX) and removes them; replacement owns the scores.
   */
  readonly pool: string;
  /** Hash: pool number → binding (Binding codec; written by the allocation script only). */
  readonly bindings: string;
  /** Hash: static tracking number (destnr) → SourceRoute JSON. Written by management. */
  readonly staticRoutes: string;
  /** Hash: answering number (phonenr) → SourceRoute JSON. Written by management. */
  readonly sourcesByPhonenr: string;
  /** Stream of customer-seen events (CustomerSeenEvent codec); appended by replacement. */
  readonly customerEvents: string;
  /**
   * Hash: custnr → marker of the values last sent to the customer-seen stream (`customerMarker`).
   * Written by the allocation script; management removes a custnr whose customer it deleted or
   * changed, so the next request naming it is sent again.
   */
  readonly customersSent: string;
  /**
   * Hash of one web session: `id` → session id, `x` → epoch ms it ends (sliding), `+<E.164>` (number
   * on the page) → pool number. PEXPIRE session_ttl.
   */
  webSession(sessionId: string): string;
  /** The same for an app visitor, keyed on trackingId (docs/number-replacement.md, Requests). */
  appSession(trackingId: string): string;
  /** String: one routed call's attribution (CallAttribution codec), 7 days. */
  call(callId: string): string;
  /** String: how a provider call's dialled leg ended (DialOutcome codec), beside `call`, 7 days. */
  callDial(callId: string): string;
  /** String `1`: the answering phone pressed 1 to take this screened call (docs/telephony.md), 7 days. */
  callScreen(callId: string): string;
  /**
   * Hash of one hour's pool telemetry (`pool-stats.codec.ts`), counted by the allocation script;
   * `hour` = epoch ms ÷ 3,600,000 (whole hours since 1970, UTC). Expires `POOL_STATS_KEEP_HOURS`
   * after the hour ends.
   */
  poolStats(hour: number): string;
  /** Hash: caller (E.164) → `block` or `allow`, the partner's spam lists (docs/spam.md). Written by management. */
  readonly spamLists: string;
  /**
   * Sorted set of one caller's recent calls: member = tracking number called, score = epoch ms of
   * its latest call. Written by replacement at the voice webhook and by management with the record;
   * trimmed to `CALLER_HISTORY_LIMITS` (docs/spam.md, Caller history).
   */
  callerNumbers(anum: string): string;
  /** Sorted set of one caller's short calls: member = call id, score = epoch ms of the call. Written with the record. */
  callerShortCalls(anum: string): string;
  /** Hash `spam` / `not_spam` → how many of the caller's calls the partner marked so. */
  callerMarks(anum: string): string;
}

/** All key names of one partner. Builders are cheap; callers on the hot path may still keep one. */
export function partnerKeys(prefix: string, advId: string): PartnerKeys {
  const base = `${assertKeyPrefix(prefix)}${partnerHashTag(advId)}:`;
  return {
    advId,
    config: `${base}config`,
    pool: `${base}pool`,
    bindings: `${base}bindings`,
    staticRoutes: `${base}routes:static`,
    sourcesByPhonenr: `${base}routes:phonenr`,
    customerEvents: `${base}events:customer-seen`,
    customersSent: `${base}customers:sent`,
    webSession: (sessionId) => `${base}session:${sessionId}`,
    appSession: (trackingId) => `${base}app:${trackingId}`,
    call: (callId) => `${base}call:${callId}`,
    callDial: (callId) => `${base}call-dial:${callId}`,
    callScreen: (callId) => `${base}screened:${callId}`,
    poolStats: (hour) => `${base}pool-stats:${hour}`,
    spamLists: `${base}spam-lists`,
    callerNumbers: (anum) => `${base}caller-numbers:${anum}`,
    callerShortCalls: (anum) => `${base}caller-short:${anum}`,
    callerMarks: (anum) => `${base}caller-marks:${anum}`,
  };
}

/**
 * Management's bookkeeping of full projection rebuilds (docs/redis-keys.md, Projection generation).
 * All under one hash tag, `{projections}`, so the script that ends a rebuild (run key → marker) is
 * valid on Redis Cluster; no partner's tag can equal it (those start with `p:`).
 */
export interface ProjectionKeys {
  /**
   * String: the generation marker (`projection-generation.codec.ts`), written last by every full
   * rebuild. Missing means Redis does not (yet) hold every partner's projection: replacement
   * answers "starting" instead of "unknown", and management rebuilds.
   */
  readonly generation: string;
  /** String with an expiry: the token of the management replica rebuilding now (one at a time). */
  readonly rebuildLock: string;
  /**
   * String with an expiry, one per rebuild: set when the rebuild starts; if it is gone when the
   * rebuild ends, Redis lost data in between and the marker must not be written.
   */
  rebuildRun(token: string): string;
}

export function projectionKeys(prefix: string): ProjectionKeys {
  const base = `${assertKeyPrefix(prefix)}{projections}:`;
  return {
    generation: `${base}generation`,
    rebuildLock: `${base}rebuild-lock`,
    rebuildRun: (token) => `${base}rebuild-run:${token}`,
  };
}

/**
 * Management's digest-authentication keys (docs/redis-keys.md, Digest nonces). One hash tag for the
 * epoch and every nonce counter: they live on one node, so the epoch names exactly the counters
 * that could be lost with it, and one script can check both on Redis Cluster.
 */
export interface DigestKeys {
  /** String: the Redis epoch every nonce names; recreated (SET NX, random) when missing. */
  readonly epoch: string;
  /** String with an expiry: the highest `nc` used with one nonce. */
  nonceCount(nonce: string): string;
}

export function digestKeys(prefix: string): DigestKeys {
  const base = `${assertKeyPrefix(prefix)}{mgmt:digest}:`;
  return { epoch: `${base}epoch`, nonceCount: (nonce) => `${base}nc:${nonce}` };
}
