export { startTestStores, stopTestStores } from './test-stores';
export { prepareTemplateDatabase, type Migrate } from './template-database';
export { createTestDatabase, type TestDatabase } from './test-database';
export { createTestRedis, type TestRedis } from './test-redis';
export { startRedisCluster, type RedisClusterHandle, type RedisClusterOptions } from './redis-cluster';
export { freePort } from './free-port';
export { slowClient, type SlowClientResult } from './slow-client';
export * from './provider';
export { renderedDom, visibleText } from './headless-browser';
