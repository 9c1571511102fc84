import { routingSuite } from '../testing/routing.suite';
import { singleRedisTarget } from '../testing/redis-target';

describe('call routing on a single Redis', () => {
  routingSuite(singleRedisTarget);
});
