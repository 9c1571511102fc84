import { routingSuite } from '../test-support/routing.suite';
import { singleRedisTarget } from '../test-support/redis-target';

describe('call routing on a single Redis', () => {
  routingSuite(singleRedisTarget);
});
