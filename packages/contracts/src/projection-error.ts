/**
 * A value in Redis that does not decode: written by another version, or corrupted by hand. The
 * reader treats it as a server fault (never as client input), so it is not a ValidationError.
 */
export class ProjectionDecodeError extends Error {
  constructor(
    readonly what: string,
    readonly problem: string,
  ) {
    super(`${what}: ${problem}`);
    this.name = 'ProjectionDecodeError';
  }
}

export function fail(what: string, problem: string): never {
  throw new ProjectionDecodeError(what, problem);
}

export function parseJsonObject(what: string, raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    fail(what, 'not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(what, 'not a JSON object');
  return value as Record<string, unknown>;
}

export function readString(what: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string') fail(what, `${field} must be a string`);
  return value;
}

export function readNullableString(
  what: string,
  record: Record<string, unknown>,
  field: string,
): string | null {
  const value = record[field];
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') fail(what, `${field} must be a string or null`);
  return value;
}

export function readInteger(what: string, record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(what, `${field} must be an integer`);
  return value;
}

export function readBoolean(what: string, record: Record<string, unknown>, field: string): boolean {
  const value = record[field];
  if (typeof value !== 'boolean') fail(what, `${field} must be a boolean`);
  return value;
}
