import { ValidationError } from '@trackline/domain';

const METHOD_TOKEN = /^[A-Za-z]+$/;

/**
 * The method a request is routed by. A POST may name another method with `?_method=` or the
 * `X-HTTP-Method-Override` header (seed: Request conventions 4) — for clients and proxies that
 * only speak GET and POST. Other methods are taken as sent: overriding a GET could turn a link
 * into a DELETE.
 */
export function effectiveMethod(
  wireMethod: string,
  query: Record<string, string>,
  header: string | undefined,
): string {
  if (wireMethod !== 'POST') return wireMethod;
  const override = query._method ?? header;
  if (override === undefined || override.trim() === '') return wireMethod;
  const method = override.trim();
  if (!METHOD_TOKEN.test(method)) {
    throw new ValidationError(
      query._method !== undefined ? '_method' : 'X-HTTP-Method-Override',
      'must be an HTTP method name',
    );
  }
  return method.toUpperCase();
}
