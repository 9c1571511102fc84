import { ValidationError } from './errors';

// The wire format sends booleans as the strings "0" and "1". Anything else is a client error:
// silently coercing `true`, `1` or "yes" would hide a partner's bug.
export type Flag = '0' | '1';

export function parseFlag(field: string, value: unknown): boolean {
  if (value === '1') return true;
  if (value === '0') return false;
  throw new ValidationError(field, 'must be "0" or "1"');
}

export function renderFlag(value: boolean): Flag {
  return value ? '1' : '0';
}
