import { ValidationError } from '@trackline/domain';

/** A query that may hold only the parameters named: any other is a 400 naming it. */
export function refuseUnknownQuery(query: Record<string, string>, allowed: readonly string[] = []): void {
  const unknown = Object.keys(query).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw new ValidationError(unknown, 'is not a known query parameter');
}
