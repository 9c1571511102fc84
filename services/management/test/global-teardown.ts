import { stopTestStores } from '@trackline/test-harness/src/index';

export default async function globalTeardown(): Promise<void> {
  await stopTestStores();
}
