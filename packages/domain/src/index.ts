export * from './errors';
export * from './flags';
export * from './phone';
export * from './signing';
export * from './time-window';
