import {
  partnerKeys,
  writePartnerProjection,
  type PartnerConfig,
  type PartnerKeys,
  type SourceRoute,
} from '@trackline/contracts';
import { createRedisClient, listen } from '@trackline/platform';
import { startRedisCluster, type RedisClusterHandle } from '@trackline/test-harness';
import type { Cluster } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createReplacementApp } from '../app';
import { loadReplacementConfig, type ReplacementConfig } from '../config/replacement-config';
import { partnerConfig, poolNumbers, projection, silentLogger, sourceRoute, uniqueAdvId } from './fixtures';
import type { Grant, LedgerEntries, Session } from './failover-ledger';
import { sendReplacementRequest, webRequest, type PartnerCall } from './partner-client';
import { whenReady } from './redis-target';

// The failover settings docs/operations.md (Redis Cluster failover) describes.
export const NODE_TIMEOUT_MS = 2_000;
const KEY_PREFIX = 'failover-test:';
const CLIENTS = 4;
const PAUSE_MS = 40;

/**
 * FAILOVER_CLIENT_TIMEOUTS=defaults runs the failover tests with the replacement service's own
 * REDIS_COMMAND_TIMEOUT_MS and REQUEST_STORE_DEADLINE_MS (docs/operations.md, Redis Cluster
 * failover, measures the window both ways). Otherwise both are raised to 1000 ms: the machine is
 * shared with other test runs, and a 100 ms hiccup outside the failover would count as a failover error.
 */
export const WITH_DEFAULT_TIMEOUTS = process.env.FAILOVER_CLIENT_TIMEOUTS === 'defaults';

// Two answering numbers on the page; a session's number routes to the source of the one it replaced.
export const SOURCES = [
  sourceRoute({ sourceId: '301', destnr: '+4790300001', phonenr: '+4722334455' }),
  sourceRoute({ sourceId: '302', destnr: '+4790300002', phonenr: '+4722334466' }),
];

/** A real Redis Cluster with one replica per master, the replacement service on it, one partner. */
export interface FailoverRig {
  cluster: RedisClusterHandle;
  /** The test's own client (queues while a node is away, so the checks after the failover wait for it). */
  redis: Cluster;
  settings: ReplacementConfig;
  keyPrefix: string;
  baseUrl: string;
  partner: PartnerConfig;
  pool: string[];
  keys: PartnerKeys;
  stop(): Promise<void>;
}

export async function startFailoverRig(options: {
  poolSize: number;
  onExhausted: PartnerConfig['onExhausted'];
}): Promise<FailoverRig> {
  const cluster = await startRedisCluster({ replicasPerMaster: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
  const closers: Array<() => Promise<void> | void> = [() => cluster.stop()];
  const stop = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const settings = loadReplacementConfig({
      REDIS_CLUSTER_NODES: cluster.nodes.map((node) => `${node.host}:${node.port}`).join(','),
      REDIS_KEY_PREFIX: KEY_PREFIX,
      TELEPHONY_TOKEN: 'switch-token',
      // Connecting and reconnecting always with the service's defaults (docs/configuration.md).
      ...(WITH_DEFAULT_TIMEOUTS
        ? {}
        : { REDIS_COMMAND_TIMEOUT_MS: '1000', REQUEST_STORE_DEADLINE_MS: '1000' }),
    });
    const redis = createRedisClient({
      url: settings.redis.url,
      clusterNodes: settings.redis.clusterNodes,
      connectTimeoutMs: settings.redis.connectTimeoutMs,
      commandTimeoutMs: 2000,
      maxReconnectDelayMs: settings.redis.maxReconnectDelayMs,
      queueWhileDisconnected: true,
      name: 'failover-test',
      logger: silentLogger,
    }) as Cluster;
    closers.push(() => redis.disconnect());
    await whenReady(redis);
    const partner = partnerConfig(uniqueAdvId('failover'), { onExhausted: options.onExhausted });
    const pool = poolNumbers(options.poolSize, 3000);
    await writePartnerProjection(redis, KEY_PREFIX, projection(partner, pool, SOURCES));

    const replacement = createReplacementApp({ config: settings, logger: silentLogger });
    closers.push(() => replacement.close());
    await whenReady(replacement.redis);
    const server = createServer(replacement.handler);
    const port = await listen(server, 0, '127.0.0.1');
    closers.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const keys = partnerKeys(KEY_PREFIX, partner.advId);
    return {
      cluster,
      redis,
      settings,
      keyPrefix: KEY_PREFIX,
      baseUrl: `http://127.0.0.1:${port}`,
      partner,
      pool,
      keys,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One request of the load; times from performance.now(). */
export interface Outcome {
  kind: 'new' | 'returning' | 'route';
  sentAt: number;
  at: number;
  status: number | 'failed';
  detail?: string;
}

/** What a load run saw: every request's outcome, and the ledger of numbers given and calls routed. */
export interface LoadRun extends LedgerEntries {
  outcomes: Outcome[];
  sessions: Session[];
  /** Protocol answers that are wrong whatever happened in Redis (a session id changed, a non-pool number). */
  wrong: string[];
  killedAt: number;
  victim: number;
}

/**
 * Partners' pages (new and returning visitors) and the switch (calls to the sessions' numbers) from
 * four loopback clients; SIGKILL of the master of the partner's slot once `readyToKill` says so
 * (and not before `warmUpMs`), then load for `afterKillMs` more. Returning visitors are drawn from the
 * `returningFrom` most recent sessions.
 */
export async function runFailoverLoad(
  rig: FailoverRig,
  options: {
    warmUpMs: number;
    afterKillMs: number;
    returningFrom: number;
    readyToKill?: (run: LoadRun) => Promise<boolean>;
  },
): Promise<LoadRun> {
  const run: LoadRun = {
    outcomes: [],
    sessions: [],
    grants: [],
    failedAllocations: [],
    routes: [],
    wrong: [],
    killedAt: Number.POSITIVE_INFINITY,
    victim: await masterOf(rig.redis, rig.keys.pool),
  };
  let counter = 0;

  async function allocate(kind: 'new' | 'returning', session?: Session): Promise<void> {
    const source = session?.source ?? SOURCES[counter % SOURCES.length]!;
    const trackingId = session?.trackingId ?? `visitor-${++counter}`;
    const sentAt = performance.now();
    let status: Outcome['status'] = 'failed';
    try {
      const call = await visit(rig, { source, trackingId, sessionId: session?.sessionId ?? '' });
      status = call.status;
      const at = performance.now();
      run.outcomes.push({ kind, sentAt, at, status });
      if (status !== 200) return;
      const number = numberOf(call.body);
      const sessionId = call.body.sessionId as string;
      if (!rig.pool.includes(number)) run.wrong.push(`${kind} session given ${number}, not a pool number`);
      if (session !== undefined && sessionId !== session.sessionId)
        run.wrong.push(`session ${session.sessionId} came back as ${sessionId}`);
      const holder = session ?? { sessionId, trackingId, source, number };
      if (session === undefined) run.sessions.push(holder);
      holder.number = number;
      run.grants.push({ kind, number, session: holder, sentAt, answeredAt: at } satisfies Grant);
    } catch (error) {
      run.outcomes.push({ kind, sentAt, at: performance.now(), status, detail: String(error) });
    } finally {
      // An answer lost on the way may still have bound a number (or recycled one) in Redis.
      if (status !== 200) run.failedAllocations.push({ sentAt, at: performance.now() });
    }
  }

  async function route(session: Session): Promise<void> {
    const number = session.number;
    const sentAt = performance.now();
    try {
      const { status, body } = await routeCall(rig, number);
      const at = performance.now();
      run.outcomes.push({ kind: 'route', sentAt, at, status });
      if (status === 200) run.routes.push({ number, sentAt, answeredAt: at, answer: body });
    } catch (error) {
      run.outcomes.push({
        kind: 'route',
        sentAt,
        at: performance.now(),
        status: 'failed',
        detail: String(error),
      });
    }
  }

  async function client(): Promise<void> {
    for (let step = 0; performance.now() < run.killedAt + options.afterKillMs; step++) {
      const recent = run.sessions.slice(-options.returningFrom);
      const pick = recent.length === 0 ? undefined : recent[Math.floor(Math.random() * recent.length)];
      if (pick === undefined || step % 3 === 0) await allocate('new');
      else if (step % 5 === 1) await route(pick);
      else await allocate('returning', pick);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }

  const startedAt = performance.now();
  const load = Promise.all(Array.from({ length: CLIENTS }, () => client()));
  await new Promise((resolve) => setTimeout(resolve, options.warmUpMs));
  while (options.readyToKill !== undefined && !(await options.readyToKill(run))) {
    if (performance.now() - startedAt > 30_000) throw new Error('the load never got ready for the kill');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  run.killedAt = performance.now();
  rig.cluster.kill(run.victim);
  await load;
  return run;
}

/** The failover window as the load saw it: first to last error (5xx or no answer). */
export interface FailoverWindow {
  errors: Outcome[];
  /** Answers neither 200 nor 5xx: never expected, failover or not. */
  unexpected: Outcome[];
  windowMs: number;
  lastErrorAt: number | undefined;
  afterWindow: Outcome[];
  summary: string;
}

export function failoverWindow(rig: FailoverRig, run: LoadRun): FailoverWindow {
  const errors = run.outcomes.filter((outcome) => outcome.status === 'failed' || outcome.status >= 500);
  const unexpected = run.outcomes.filter(
    (outcome) => outcome.status !== 'failed' && outcome.status !== 200 && outcome.status < 500,
  );
  const firstErrorAt = errors.length === 0 ? undefined : Math.min(...errors.map((error) => error.at));
  const lastErrorAt = errors.length === 0 ? undefined : Math.max(...errors.map((error) => error.at));
  const windowMs = firstErrorAt === undefined ? 0 : Math.round(lastErrorAt! - firstErrorAt);
  const afterKill = (at: number | undefined) => (at === undefined ? '-' : Math.round(at - run.killedAt));
  return {
    errors,
    unexpected,
    windowMs,
    lastErrorAt,
    afterWindow: run.outcomes.filter((outcome) => outcome.sentAt > (lastErrorAt ?? run.killedAt)),
    summary:
      `failover window ${windowMs} ms (first error ${afterKill(firstErrorAt)} ms after the kill, ` +
      `last ${afterKill(lastErrorAt)} ms); ${run.outcomes.length} requests, ${errors.length} errors, ` +
      `${run.sessions.length} sessions; ${outageAfterKill(errors, run.killedAt, rig.settings.storeDeadlineMs)}; ` +
      `errors by half second after the kill: ${errorTimeline(errors, run.killedAt)}; ` +
      `cluster-node-timeout ${NODE_TIMEOUT_MS} ms; ` +
      (WITH_DEFAULT_TIMEOUTS
        ? 'the service default client timeouts'
        : 'command timeout and store deadline raised to 1000 ms'),
  };
}

/** A visitor's request from the partner's page (signed, real HTTP statuses). */
export function visit(
  rig: FailoverRig,
  visitor: { source: SourceRoute; trackingId: string; sessionId: string },
): Promise<PartnerCall> {
  const body = webRequest(rig.partner.advId, visitor.source.phonenr.slice(3), {
    trackingId: visitor.trackingId,
    sessionId: visitor.sessionId,
  });
  return sendReplacementRequest(rig.baseUrl, body, { secret: rig.partner.signingSecret, httpStatuses: true });
}

/** The switch asking where a call to `number` goes. */
export async function routeCall(
  rig: FailoverRig,
  number: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${rig.baseUrl}/telephony/route`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer switch-token' },
    body: JSON.stringify({ call_id: `call-${randomUUID()}`, anum: '+4799999999', bnum: number }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The failover's own errors, apart from any stray timeout of a busy machine: from the kill, the run
 * of errors with no pause between two of them longer than a second or, when a request may wait
 * longer, two requests' store deadlines (each client's failures come one deadline apart).
 */
function outageAfterKill(errors: Outcome[], killedAt: number, storeDeadlineMs: number): string {
  const gapMs = Math.max(1000, 2 * storeDeadlineMs);
  const after = errors.map((error) => error.at - killedAt).filter((at) => at >= 0);
  after.sort((a, b) => a - b);
  if (after.length === 0) return 'no errors after the kill';
  let end = 0;
  while (end + 1 < after.length && after[end + 1]! - after[end]! < gapMs) end++;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return (
    `failover errors from ${seconds(after[0]!)} to ${seconds(after[end]!)} s after the kill, ` +
    `${errors.length - (end + 1)} errors apart from them`
  );
}

/** `1.5s×4` for four errors answered 1.5–2 s after the kill: where in the window they fell. */
function errorTimeline(errors: Outcome[], killedAt: number): string {
  const counts = new Map<number, number>();
  for (const error of errors) {
    const bucket = Math.floor((error.at - killedAt) / 500) / 2;
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  const buckets = [...counts].sort(([a], [b]) => a - b);
  return buckets.length === 0 ? 'none' : buckets.map(([at, count]) => `${at}s×${count}`).join(' ');
}

export function numberOf(body: Record<string, unknown>): string {
  return (body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
}

/** The port of the master serving the slot of `key`. */
export async function masterOf(cluster: Cluster, key: string): Promise<number> {
  const slot = (await cluster.cluster('KEYSLOT', key)) as number;
  const ranges = await cluster.cluster('SLOTS');
  const master = ranges.find(([first, last]) => slot >= first && slot <= last)?.[2];
  if (master === undefined) throw new Error(`no master serves slot ${slot}`);
  return master[1];
}
