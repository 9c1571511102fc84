export * from './env-config';
export * from './logger';
export * from './redis-client';
export * from './http-lifecycle';
export * from './request-context';
export * from './metrics-registry';
export * from './fixed-metrics';
export * from './http-limits';
