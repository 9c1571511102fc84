export * from './errors';
export * from './flags';
export * from './phone';
export * from './signing';
export * from './time-window';
export * from './json-input';
export * from './alt-numbers';
export * from './money';
