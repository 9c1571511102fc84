import { allocationSuite } from '../test-support/allocation.suite';
import { singleRedisTarget } from '../test-support/redis-target';

describe('number pool allocation on a single Redis', () => {
  allocationSuite(singleRedisTarget);
});
