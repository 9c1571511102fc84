// jest globalSetup for the launcher: its end-to-end test points the launcher at the harness's Redis
// (TEST_REDIS_URL, or a container when unset), like every other integration test. Loaded by plain
// require, so the harness is taken from source by a relative path (the launcher does not depend on it).
import { startTestStores } from '../../../packages/test-harness/src/index';

export default async function globalSetup(): Promise<void> {
  await startTestStores();
}
