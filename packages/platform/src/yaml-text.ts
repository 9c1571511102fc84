import { parse } from 'yaml';

/** Stands for one UTF-16 unit beyond Latin-1 while the text is parsed: ESCAPE and four hex digits. */
const ESCAPE = '\u00a4';
const BEYOND_LATIN1 = /[\u00a4\u0100-\uffff]/g;
const ESCAPED = /\u00a4([0-9a-f]{4})/g;

/**
 * `yaml`'s `parse`, but every key and string of the result is held one byte a character where its
 * text allows.
 *
 * V8 keeps a string's representation when it slices one out of another and when it makes it a
 * property name: a key the parser slices out of a text that holds a single character beyond
 * Latin-1 (an em dash in a description) becomes a two-byte property name, and from then on every
 * JSON body the process parses gets that two-byte name for the same key (`sessionId`,
 * `number_on_page`). Every JSON string and Redis command built from such a body is then two-byte,
 * which V8 and Node write out more slowly: about 20,000 instructions a replacement request
 * (docs/benchmarks.md, Instructions per request). So the parser is given the text with each such
 * character as an escape of Latin-1 characters, and the characters are put back into the parsed
 * strings, which are then new strings of their own.
 */
export function parseYamlText(text: string): unknown {
  // A leading byte-order mark is not content; escaped, it would become part of the first key.
  const source = text.startsWith('\ufeff') ? text.slice(1) : text;
  const escaped = source.replace(
    BEYOND_LATIN1,
    (unit) => ESCAPE + unit.charCodeAt(0).toString(16).padStart(4, '0'),
  );
  // replace() keeps the two-byte form of its subject; Latin-1 bytes read back make a one-byte string.
  return restore(parse(Buffer.from(escaped, 'latin1').toString('latin1')));
}

function restore(value: unknown): unknown {
  if (typeof value === 'string') return value.includes(ESCAPE) ? unescapeText(value) : value;
  if (Array.isArray(value)) return value.map(restore);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [restore(key) as string, restore(entry)]),
  );
}

function unescapeText(text: string): string {
  return text.replace(ESCAPED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
