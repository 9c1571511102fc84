// The pieces of `pnpm bench` management's whole-system bench runs beside its own (docs/benchmarks.md),
// imported as @trackline/replacement/dist-test/bench (the test build, docs/testing.md) so the service's own entry does not load the load generator.
export { runLoad, summarizeLoads, type RawLoad, type SignedRequest, type LoadResult } from './bench-load';
export {
  createBenchPartner,
  createSessions,
  signedRequests,
  NEW_SESSION_POOL,
  EXISTING_SESSIONS,
  type Workload,
} from './bench-fixtures';
export { phaseTable, table, ms, type PhaseResult, type ServerName, type Mode } from './bench-report';
export {
  startBareServer,
  startService,
  waitUntilServing,
  type ServerUnderTest,
  type ServerSettings,
} from './bench-servers';
export { minimalAllocator } from './minimal-server';
export { benchResultsDir, writeBenchResults } from './bench-results';
export { minimalRequestWork, microsecondsPerCall } from './minimal-work';
