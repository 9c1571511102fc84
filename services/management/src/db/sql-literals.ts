import { Buffer } from 'node:buffer';
import pg from 'pg';
// node-postgres' own conversion of a parameter to its text form (the same one its extended
// protocol sends), so an inlined statement means what the parameterized one means.
import { prepareValue } from 'pg/lib/utils';

/**
 * `text` with each `$n` replaced by parameter n as a quoted literal, for the simple protocol
 * (db/statement-pipelining.ts). A quoted literal is of unknown type, as an untyped parameter is,
 * so Postgres resolves it from the same context; the casts a statement writes (`$1::bigint[]`)
 * apply to it alike. `$n` inside quoted text, quoted names and comments is left alone; dollar-quoted
 * text is refused, since its end cannot be found without its tag.
 */
export function inlineParameters(text: string, values: readonly unknown[]): string {
  let out = '';
  let copiedTo = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      i = closingQuote(text, i, c === "'" && isEscapeStringPrefix(text, i));
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) throw new Error('unterminated comment in SQL to inline');
      i = end + 2;
    } else if (c === '$' && !isIdentifierChar(text[i - 1])) {
      const digits = /^\d+/.exec(text.slice(i + 1))?.[0];
      if (digits === undefined) throw new Error('dollar-quoted text cannot be inlined');
      const index = Number(digits);
      if (index < 1 || index > values.length)
        throw new Error(`parameter $${digits} of ${values.length} in SQL to inline`);
      out += text.slice(copiedTo, i) + sqlLiteral(values[index - 1]);
      i += 1 + digits.length;
      copiedTo = i;
    } else {
      i += 1;
    }
  }
  return out + text.slice(copiedTo);
}

/** A value as node-postgres would send it, written as an SQL literal (NULL, or quoted text). */
export function sqlLiteral(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  if (Buffer.isBuffer(prepared)) return pg.escapeLiteral(`\\x${prepared.toString('hex')}`);
  return pg.escapeLiteral(prepared);
}

/** The index after the quote that closes the one at `open`; a doubled quote is part of the text. */
function closingQuote(text: string, open: number, backslashEscapes: boolean): number {
  const quote = text[open]!;
  let i = open + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (backslashEscapes && c === '\\') {
      i += 2;
    } else if (c === quote) {
      if (text[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i += 1;
    }
  }
  throw new Error('unterminated quote in SQL to inline');
}

/** `E'…'`: the quote follows a lone E (not the end of a longer name). */
function isEscapeStringPrefix(text: string, quote: number): boolean {
  const before = text[quote - 1];
  return (before === 'E' || before === 'e') && !isIdentifierChar(text[quote - 2]);
}

function isIdentifierChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}
