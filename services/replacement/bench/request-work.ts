import { randomUUID } from 'node:crypto';
import { EnvReader, type RedisConnection } from '@trackline/platform';
import { DynamicNumbersService } from '../src/dynamic-numbers/dynamic-numbers.service';
import { CachedTrackingNumbersStore } from '../src/dynamic-numbers/tracking-numbers.store';
import type { ProjectionGenerationStore } from '../src/partners/projection-generation.store';
import { RedisNumberPoolStore } from '../src/pools/number-pool.store';
import { SentCustomerMemory } from '../src/pools/sent-customers.memory';
import { benchPartnerConfig, NEW_SESSION_POOL, signedRequests } from './bench-fixtures';
import { microsecondsPerCall, minimalRequestWork } from './minimal-work';

const PARTNER = benchPartnerConfig('bench-request-work');

/**
 * The replacement service's own work per request, in one process and without sockets
 * (docs/benchmarks.md, Request work in one process): `DynamicNumbersService.replace`
 * on the bench's signed new-session body, the store building the allocation script's call as it
 * does for Redis, with the partner, the tracking-number check and the script's answer given from
 * memory; against the minimal server's work on the same body (JSON parse, HMAC, the seed's answer).
 * Both answers are JSON-encoded. The script hands out the bench pool's 20,000 numbers in turn, and a
 * warm-up goes round the pool once first, so the national forms are remembered as in a warm service.
 * Prints µs per request of each, alternately, BENCH_WORK_ROUNDS times.
 */
async function main(): Promise<void> {
  const read = new EnvReader(process.env);
  const requests = read.integer('BENCH_WORK_REQUESTS', 200_000, { min: 1_000, max: 10_000_000 });
  const rounds = read.integer('BENCH_WORK_ROUNDS', 3, { min: 1, max: 50 });
  read.done();
  const [{ body, signature }] = signedRequests(PARTNER, null);
  const service = serviceAnsweredFromMemory();
  const now = Date.now();
  const serviceWork = async () => JSON.stringify(await service.replace(body!, signature, now)).length;
  const minimalWork = minimalRequestWork();
  await microsecondsPerCall(serviceWork, NEW_SESSION_POOL + 1_000);
  await microsecondsPerCall(minimalWork, 10_000);
  for (let round = 1; round <= rounds; round++) {
    const service = await microsecondsPerCall(serviceWork, requests);
    const minimal = await microsecondsPerCall(minimalWork, requests);
    process.stdout.write(
      `round ${round}: service ${service.toFixed(2)} µs, minimal ${minimal.toFixed(2)} µs per request\n`,
    );
  }
}

function serviceAnsweredFromMemory(): DynamicNumbersService {
  let issued = 0;
  // What RedisNumberPoolStore needs of a connection: its scripts registered, and the allocation's
  // answer ("<session id> <bound> <recycled> <number>"); the new session's id is the script's ARGV[6],
  // after five keys with a customer to check and three without.
  const answer = (newSessionId: string | undefined) => {
    issued = (issued + 1) % NEW_SESSION_POOL;
    return Promise.resolve(`${newSessionId} 1 0 +47${90_000_000 + issued}`);
  };
  const redis = {
    defineCommand: () => undefined,
    allocateNumbers: (...keysAndArgs: string[]) => answer(keysAndArgs[10]),
    allocateNumbersWithoutCustomer: (...keysAndArgs: string[]) => answer(keysAndArgs[8]),
    addPoolStats: () => Promise.resolve(0),
  } as unknown as RedisConnection;
  return new DynamicNumbersService({
    partners: { find: () => Promise.resolve(PARTNER) },
    generations: {} as ProjectionGenerationStore,
    pools: new RedisNumberPoolStore(redis, 'bench:', { sentCustomers: new SentCustomerMemory(1_000) }),
    newSessionId: randomUUID,
    trackingNumbers: new CachedTrackingNumbersStore(
      { trackingNumbersAmong: () => Promise.resolve([]) },
      1_000,
    ),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`request-work bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
