import { findUnstorableCharacter, isStorableText } from './text-rules';

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
