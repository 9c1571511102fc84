import { ValidationError } from './errors';

// alt_numbers and pricing conditions arrive either as JSON values or as JSON text in a form
// field; both end up here so every array-of-objects field is checked the same way.

export function parseJsonArray(field: string, raw: unknown, maxLength: number): unknown[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw new ValidationError(field, 'must be a JSON array');
    }
  }
  if (!Array.isArray(value)) throw new ValidationError(field, 'must be a JSON array');
  if (value.length > maxLength)
    throw new ValidationError(field, `must not hold more than ${maxLength} entries`);
  return value;
}

/** A plain object whose keys are all in `allowed`; the first unknown key is named in the error. */
export function expectObjectWithKeys(
  field: string,
  value: unknown,
  allowed: readonly string[],
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, 'must be an object');
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) throw new ValidationError(`${field}.${key}`, 'is not an allowed field');
  }
  return record;
}

export function requireKey(field: string, record: Record<string, unknown>, key: string): unknown {
  const value = record[key];
  if (value === undefined || value === null) throw new ValidationError(`${field}.${key}`, 'is required');
  return value;
}
