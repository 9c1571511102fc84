import { findUnstorableCharacter, isStorableText, jsonMayHoldUnstorableText } from './text-rules';

describe('findUnstorableCharacter', () => {
  it.each([
    ['', -1],
    ['plain ascii', -1],
    ['Ærlig Øl – 🚗', -1],
    ['a\u0000b', 1],
    ['\ud83d', 0],
    ['x\ude97', 1],
    ['ok\ud83d\ude97 then \ud83d', 10],
    ['\ude97\ud83d', 0],
  ])('%j → %i', (text, index) => {
    expect(findUnstorableCharacter(text)).toBe(index);
    expect(isStorableText(text)).toBe(index === -1);
  });

  it('agrees with what UTF-8 can round-trip and Postgres text can hold', () => {
    const samples = ['abc', 'a\u0000', '\ud800', '\udfff', '\ud83d\ude97', 'é\u0001\u007f'];
    for (const text of samples) {
      const roundTrips = Buffer.from(text, 'utf8').toString('utf8') === text;
      expect(isStorableText(text)).toBe(roundTrips && !text.includes('\u0000'));
    }
  });
});

describe('jsonMayHoldUnstorableText', () => {
  it('is true for JSON text whose strings hold a NUL or a lone surrogate, as encoders write it', () => {
    for (const text of ['a\u0000', '\ud800', 'x\udfff', '\u0000']) {
      const json = Buffer.from(JSON.stringify({ field: text }));
      expect(jsonMayHoldUnstorableText(json)).toBe(true);
    }
  });

  it('is false only where every string JSON.parse makes of the text is storable', () => {
    const samples = [
      Buffer.from(JSON.stringify({ a: 'Ærlig Øl – 🚗', b: ['x', 'y'], kø: 'ok' })),
      // Bytes that are not UTF-8 (a lone surrogate's encoding, a cut-off sequence) decode to U+FFFD.
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80, 0xf0, 0x9f]), Buffer.from('"}')]),
      Buffer.from('{"a":"tab\\t, quote \\" and slash \\/ escapes"}'),
    ];
    for (const json of samples) {
      expect(jsonMayHoldUnstorableText(json)).toBe(false);
      const parsed = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
      const strings = JSON.stringify(parsed).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
      for (const quoted of strings) expect(isStorableText(JSON.parse(quoted) as string)).toBe(true);
    }
  });

  it('is true for an escaped backslash before a u, which is not an escape: a check too many, never one too few', () => {
    expect(jsonMayHoldUnstorableText(Buffer.from('{"a":"C:\\\\users"}'))).toBe(true);
  });
});
