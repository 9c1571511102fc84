import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { parse } from 'yaml';
import { parseYamlText } from './yaml-text';

/** V8's serializer tags a one-byte string `"` and a two-byte one `c` (after its two header bytes). */
function isOneByte(text: string): boolean {
  return serialize(text)[2] === '"'.charCodeAt(0);
}

describe('parseYamlText', () => {
  it('gives what yaml.parse gives, characters beyond Latin-1 and the escape character included', () => {
    const text = [
      'plain: a — b ≤ c',
      'quoted: "→ x\\n ¤00e6 ¤"',
      "single: 'Ærlig 😀'",
      'folded: >',
      '  one — line',
      '  and ≥ another',
      'list: [ä, ✓, 3]',
      'nested: { kéy—name: { deeper: ¤ } }',
      'number: 1.5',
    ].join('\n');
    expect(parseYamlText(text)).toEqual(parse(text));
    expect(parseYamlText(`\ufeff${text}`)).toEqual(parse(text));
  });

  it("gives the repository's OpenAPI documents as yaml.parse does", () => {
    for (const file of ['replacement.yaml', 'management.yaml']) {
      const text = readFileSync(join(__dirname, '../../../docs/openapi', file), 'utf8');
      expect(parseYamlText(text)).toEqual(parse(text));
    }
  });

  it('leaves the names it makes one byte a character, so later JSON bodies get them so too', () => {
    // A name no other test could have made, so the process's earlier parses cannot decide it.
    const name = `k${randomUUID().replaceAll('-', '')}`;
    const parsed = parseYamlText(`${name}: x # an em dash — beyond Latin-1\n`) as Record<string, string>;
    expect(isOneByte(Object.keys(parsed)[0]!)).toBe(true);
    const body = JSON.parse(`{"${name}":"1"}`) as Record<string, string>;
    expect(isOneByte(Object.keys(body)[0]!)).toBe(true);
    expect(isOneByte(JSON.stringify(body))).toBe(true);
  });

  it('is what yaml.parse does not do: the check above tells the two apart', () => {
    const name = `k${randomUUID().replaceAll('-', '')}`;
    parse(`${name}: x # —\n`);
    const body = JSON.parse(`{"${name}":"1"}`) as Record<string, string>;
    expect(isOneByte(Object.keys(body)[0]!)).toBe(false);
  });
});
