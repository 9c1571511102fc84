/**
 * Characters that no store of ours can hold. PostgreSQL `text` refuses NUL (U+0000), and a UTF-16
 * surrogate without its partner has no UTF-8 encoding, so Postgres, Redis JSON and our XML renderer
 * cannot keep it faithfully. Both services check text against this rule where it enters, so a value
 * one service accepts can always be stored by the other (docs/cdrs.md, "What both services accept").
 */

/** Index of the first unstorable character of `text`, or -1 when every character can be stored. */
export function findUnstorableCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return i;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++; // a well-formed pair
        continue;
      }
      return i;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return i;
  }
  return -1;
}

const UNICODE_ESCAPE = Buffer.from('\\u');

/**
 * False when no string parsed from this JSON text can hold an unstorable character, so checking each
 * string for one may be skipped. JSON allows neither character raw inside a string (control
 * characters must be escaped, and decoding UTF-8 never yields a lone surrogate: bytes that are not
 * UTF-8 become U+FFFD), so only a `\u` escape can produce one. One search of the body's bytes costs
 * less than looking at each character of every field (docs/benchmarks.md).
 */
export function jsonMayHoldUnstorableText(json: Buffer): boolean {
  return json.indexOf(UNICODE_ESCAPE) !== -1;
}

/** True when `text` holds no NUL and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return findUnstorableCharacter(text) === -1;
}

/** The rule as a 400 message fragment names it: `<field> must not contain NUL or unpaired surrogates`. */
export const UNSTORABLE_TEXT_RULE = 'must not contain NUL characters or unpaired UTF-16 surrogates';
