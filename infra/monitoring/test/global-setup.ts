// jest globalSetup for monitoring: its Prometheus integration test runs `pnpm start`'s launcher
// against the harness's Postgres and Redis (TEST_DATABASE_URL, TEST_REDIS_URL, or containers when
// unset), like every other integration test. Loaded by plain require, so the harness is taken from
// source by a relative path.
import { startTestStores } from '../../../packages/test-harness/src/index';

export default async function globalSetup(): Promise<void> {
  await startTestStores();
}
