import { stopTestStores } from '../../../packages/test-harness/src/index';

export default async function globalTeardown(): Promise<void> {
  await stopTestStores();
}
