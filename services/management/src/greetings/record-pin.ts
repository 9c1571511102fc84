import { randomInt } from 'node:crypto';

const PIN_DIGITS = 6;

/** A uniformly drawn six-digit PIN, leading zeros kept ("004217"). */
export function randomRecordPin(): string {
  return String(randomInt(0, 10 ** PIN_DIGITS)).padStart(PIN_DIGITS, '0');
}

export function isRecordPin(value: unknown): value is string {
  return typeof value === 'string' && /^\d{6}$/.test(value);
}
