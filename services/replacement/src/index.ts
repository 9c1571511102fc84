// What other workspace packages may use of the replacement service: its composition root and config
// loader, so management's end-to-end tests can run the real app beside theirs.
export { createReplacementApp, type ReplacementApp, type ReplacementAppOptions } from './app';
export { loadReplacementConfig, type ReplacementConfig } from './config/replacement-config';
