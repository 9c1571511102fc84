/**
 * The longest Authorization header looked at (docs/configuration.md, Limits). A digest header is
 * a few hundred characters plus the request target; anything longer is refused before parsing.
 */
export const MAX_AUTHORIZATION_LENGTH = 8192;

export type DigestHeaderResult =
  { ok: true; params: ReadonlyMap<string, string> } | { ok: false; reason: string };

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/**
 * Parses `Authorization: Digest name=value, name="quoted \"value\""` (RFC 7616 §3.4, RFC 9110
 * auth-param) in one pass over the header: every character is looked at a bounded number of times,
 * so the cost is linear in its length. Names are case-insensitive (lower-cased here); a repeated
 * name, a missing `=`, an unterminated quote or anything between parameters but a comma is refused.
 * The result is a Map, so names such as `__proto__` or `constructor` are plain keys.
 */
export function parseDigestAuthorization(header: string): DigestHeaderResult {
  if (header.length > MAX_AUTHORIZATION_LENGTH) {
    return {
      ok: false,
      reason: `Authorization header must be at most ${MAX_AUTHORIZATION_LENGTH} characters`,
    };
  }
  const scheme = /^\s*digest\s+/i.exec(header);
  if (scheme === null) return { ok: false, reason: 'Digest authentication required' };
  const malformed = { ok: false, reason: 'Malformed digest credentials' } as const;
  const params = new Map<string, string>();
  let i = scheme[0].length;
  const n = header.length;
  const skipSpace = (): void => {
    while (i < n && (header[i] === ' ' || header[i] === '\t')) i++;
  };
  while (i < n) {
    skipSpace();
    if (header[i] === ',') {
      i++;
      continue;
    }
    if (i >= n) break;
    const nameStart = i;
    while (i < n && TOKEN_CHAR.test(header[i])) i++;
    if (i === nameStart) return malformed;
    const name = header.slice(nameStart, i).toLowerCase();
    skipSpace();
    if (header[i] !== '=') return malformed;
    i++;
    skipSpace();
    let value: string;
    if (header[i] === '"') {
      i++;
      let text = '';
      let closed = false;
      while (i < n) {
        const char = header[i];
        if (char === '"') {
          closed = true;
          i++;
          break;
        }
        if (char === '\\' && i + 1 < n) {
          text += header[i + 1];
          i += 2;
          continue;
        }
        text += char;
        i++;
      }
      if (!closed) return malformed;
      value = text;
    } else {
      const valueStart = i;
      while (i < n && TOKEN_CHAR.test(header[i])) i++;
      value = header.slice(valueStart, i);
    }
    if (params.has(name)) return malformed;
    params.set(name, value);
    skipSpace();
    if (i < n && header[i] !== ',') return malformed;
  }
  return { ok: true, params };
}
