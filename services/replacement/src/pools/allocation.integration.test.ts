import { allocationSuite } from '../testing/allocation.suite';
import { singleRedisTarget } from '../testing/redis-target';

describe('number pool allocation on a single Redis', () => {
  allocationSuite(singleRedisTarget);
});
