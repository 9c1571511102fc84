import {
  isE164,
  isSpamPolicy,
  MINUTES_PER_DAY,
  VOICEMAIL_TARGET,
  WEEKDAYS,
  type SpamPolicy,
  type Weekday,
} from '@trackline/domain';
import { CONSENT_MAX_LENGTH, type SourceCallRecording } from './call-recording';
import { isReadableProjectionVersion, PROJECTION_VERSION } from './projection-version';
import { fail, parseJsonObject, readBoolean, readNullableString, readString } from './projection-error';

/** One alt-number rule; the domain's AltNumberRule shape, so selectAnsweringNumber takes it as is. */
export interface RouteAltRule {
  /** E.164, or 'voicemail'. */
  phonenr: string;
  weekdays: Weekday[];
  /** Minutes since local midnight, inclusive. */
  fromMinute: number;
  /** Minutes since local midnight, exclusive (1440 = end of day). */
  toMinute: number;
  altKey: string;
}

/**
 * How calls for one source are routed; projected by management into `routes:static` (by destnr)
 * and `routes:phonenr` (by phonenr). Rules are kept in the source's order: the first match wins.
 */
export interface SourceRoute {
  sourceId: string;
  customerId: string;
  /** The static tracking number, E.164. */
  destnr: string;
  /** The answering number, E.164. */
  phonenr: string;
  altNumbers: RouteAltRule[];
  /** Every call goes to voicemail (the source's flag, or its campaign's). */
  vmDivertAll: boolean;
  /** A dialled call that finds the number busy goes to voicemail (the source's flag, or its campaign's). */
  vmDivertBusy: boolean;
  /** A dialled call nobody answers goes to voicemail (the source's flag, or its campaign's). */
  vmDivertNoanswer: boolean;
  /** The greeting played on any voicemail diversion (the source's, else its campaign's). */
  vmGreetingId: string | null;
  /** A closed source's number is held back: calls still route, and are marked quarantined. */
  closed: boolean;
  /** The source's own spam policy (docs/spam.md, Per source); absent: the partner's applies. */
  spamPolicy?: SourceSpamPolicy;
  /** The source's own recording settings (docs/telephony.md, Recording answered calls); absent: the partner's. */
  callRecording?: SourceCallRecording;
}

/** A source's override of its partner's spam policy (docs/spam.md, Per source). */
export interface SourceSpamPolicy {
  policy: SpamPolicy;
  /** The score (0–100) from which a call is judged spam; null: the partner's threshold. */
  threshold: number | null;
}

/** A route as read back from Redis. */
export interface StoredSourceRoute extends SourceRoute {
  /**
   * Written under projection version 1, before busy and no-answer diversion were projected: both
   * read as false (what routing did under version 1) although the source may have them set, until
   * management's rebuild at its next start rewrites the route. Readers can say so in their logs.
   */
  stale: boolean;
}

/** The first version whose routes carry `vm_divert_busy` and `vm_divert_noanswer`. */
const BUSY_NOANSWER_SINCE = 2;

const WHAT = 'source route';

export function encodeSourceRoute(route: SourceRoute): string {
  validate(route);
  return JSON.stringify({
    version: PROJECTION_VERSION,
    source_id: route.sourceId,
    customer_id: route.customerId,
    destnr: route.destnr,
    phonenr: route.phonenr,
    alt_numbers: route.altNumbers.map((rule) => ({
      phonenr: rule.phonenr,
      weekdays: rule.weekdays,
      from_minute: rule.fromMinute,
      to_minute: rule.toMinute,
      alt_key: rule.altKey,
    })),
    vm_divert_all: route.vmDivertAll,
    vm_divert_busy: route.vmDivertBusy,
    vm_divert_noanswer: route.vmDivertNoanswer,
    vm_greeting_id: route.vmGreetingId,
    closed: route.closed,
    // Left out when unset, so routes without one read the same under every version.
    ...(route.spamPolicy === undefined
      ? {}
      : { spam_policy: route.spamPolicy.policy, spam_threshold: route.spamPolicy.threshold }),
    ...(route.callRecording?.recordCalls == null ? {} : { record_calls: route.callRecording.recordCalls }),
    ...(route.callRecording?.consentAnnouncement == null
      ? {}
      : { consent_announcement: route.callRecording.consentAnnouncement }),
  });
}

/**
 * Reads a route of any readable projection version. One of an older version is returned marked
 * `stale`, with the fields it predates at the value that version's routing implied; a version this
 * code does not know (newer, or never issued) is refused.
 */
export function decodeSourceRoute(raw: string): StoredSourceRoute {
  const record = parseJsonObject(WHAT, raw);
  const version = record.version;
  if (!isReadableProjectionVersion(version)) {
    fail(WHAT, `projection version ${JSON.stringify(version)}, this code reads up to ${PROJECTION_VERSION}`);
  }
  const rules = record.alt_numbers;
  if (!Array.isArray(rules)) fail(WHAT, 'alt_numbers must be an array');
  const hasBusyNoanswer = version >= BUSY_NOANSWER_SINCE;
  const route: StoredSourceRoute = {
    sourceId: readString(WHAT, record, 'source_id'),
    customerId: readString(WHAT, record, 'customer_id'),
    destnr: readString(WHAT, record, 'destnr'),
    phonenr: readString(WHAT, record, 'phonenr'),
    altNumbers: rules.map((rule: unknown) => decodeRule(rule)),
    vmDivertAll: readBoolean(WHAT, record, 'vm_divert_all'),
    vmDivertBusy: hasBusyNoanswer && readBoolean(WHAT, record, 'vm_divert_busy'),
    vmDivertNoanswer: hasBusyNoanswer && readBoolean(WHAT, record, 'vm_divert_noanswer'),
    vmGreetingId: readNullableString(WHAT, record, 'vm_greeting_id'),
    closed: readBoolean(WHAT, record, 'closed'),
    stale: version < PROJECTION_VERSION,
    ...decodeSpamPolicy(record),
    ...decodeCallRecording(record),
  };
  validate(route);
  return route;
}

function decodeSpamPolicy(record: Record<string, unknown>): Pick<SourceRoute, 'spamPolicy'> {
  const policy = record.spam_policy;
  if (policy === undefined) return {};
  if (!isSpamPolicy(policy)) fail(WHAT, 'spam_policy must be allow, challenge, voicemail or reject');
  const threshold = record.spam_threshold ?? null;
  if (threshold !== null && typeof threshold !== 'number')
    fail(WHAT, 'spam_threshold must be a number or null');
  return { spamPolicy: { policy, threshold } };
}

function decodeCallRecording(record: Record<string, unknown>): Pick<SourceRoute, 'callRecording'> {
  const { record_calls: recordCalls, consent_announcement: announcement } = record;
  if (recordCalls === undefined && announcement === undefined) return {};
  if (recordCalls !== undefined && typeof recordCalls !== 'boolean')
    fail(WHAT, 'record_calls must be a boolean');
  if (announcement !== undefined && typeof announcement !== 'string')
    fail(WHAT, 'consent_announcement must be a string');
  return { callRecording: { recordCalls: recordCalls ?? null, consentAnnouncement: announcement ?? null } };
}

function decodeRule(raw: unknown): RouteAltRule {
  if (typeof raw !== 'object' || raw === null) fail(WHAT, 'alt_numbers entry must be an object');
  const rule = raw as Record<string, unknown>;
  if (!Array.isArray(rule.weekdays)) fail(WHAT, 'alt_numbers weekdays must be an array');
  return {
    phonenr: readString(WHAT, rule, 'phonenr'),
    weekdays: rule.weekdays as Weekday[],
    fromMinute: rule.from_minute as number,
    toMinute: rule.to_minute as number,
    altKey: readString(WHAT, rule, 'alt_key'),
  };
}

function validate(route: SourceRoute): void {
  const announcement = route.callRecording?.consentAnnouncement ?? null;
  if (announcement !== null && announcement.length > CONSENT_MAX_LENGTH)
    fail(WHAT, `consent_announcement must be at most ${CONSENT_MAX_LENGTH} characters`);
  const threshold = route.spamPolicy?.threshold ?? null;
  if (threshold !== null && (!Number.isInteger(threshold) || threshold < 0 || threshold > 100)) {
    fail(WHAT, 'spam_threshold must be 0 to 100');
  }
  if (route.sourceId === '' || route.customerId === '') fail(WHAT, 'source_id and customer_id are required');
  if (!isE164(route.destnr)) fail(WHAT, 'destnr must be E.164');
  if (!isE164(route.phonenr)) fail(WHAT, 'phonenr must be E.164');
  for (const rule of route.altNumbers) {
    if (rule.phonenr !== VOICEMAIL_TARGET && !isE164(rule.phonenr)) {
      fail(WHAT, 'alt rule phonenr must be E.164 or "voicemail"');
    }
    if (
      rule.weekdays.length === 0 ||
      !rule.weekdays.every((day) => (WEEKDAYS as readonly string[]).includes(day))
    ) {
      fail(WHAT, 'alt rule weekdays must be mon..sun');
    }
    const { fromMinute: from, toMinute: to } = rule;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > MINUTES_PER_DAY || from >= to) {
      fail(WHAT, 'alt rule window must be 0 <= from < to <= 1440 minutes');
    }
  }
}
