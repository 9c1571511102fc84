import { ValidationError } from '@trackline/domain';

/** A body that may hold only the fields named: any other is a 400 naming it and listing the fields. */
export function refuseUnknownFields(input: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(input).find((name) => !known.includes(name));
  if (unknown === undefined) return;
  throw new ValidationError(
    unknown,
    known.length === 0
      ? 'unknown field; this request takes none'
      : `unknown field; the fields are ${known.join(', ')}`,
  );
}
