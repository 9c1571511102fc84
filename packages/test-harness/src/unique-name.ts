import { randomBytes } from 'node:crypto';

// Lower-case hex only: safe inside a Postgres identifier and a Redis SCAN pattern without escaping.
export function randomSuffix(bytes = 4): string {
  return randomBytes(bytes).toString('hex');
}

// The pid makes names from concurrent jest runs on one machine distinct and traceable to a process.
export function uniqueDatabaseName(kind: 'tpl' | 'test'): string {
  return `tl_${kind}_${process.pid}_${randomSuffix()}`;
}
