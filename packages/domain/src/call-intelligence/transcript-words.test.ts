import { foldWord, transcriptWords } from './transcript-words';

describe('transcript words', () => {
  it('folds case, accents and Norwegian letters', () => {
    expect(foldWord('Prøvekjøring')).toBe('provekjoring');
    expect(foldWord('FØR')).toBe('for');
    expect(foldWord('Åtte')).toBe('atte');
    expect(foldWord('Kjære')).toBe('kjaere');
    expect(foldWord('Café')).toBe('cafe');
    expect(foldWord('It’s')).toBe("it's");
  });

  it('reads words with their offsets, leaving punctuation at the edges out', () => {
    const text = 'Hi, is the Volvo still available? Call 4111-1111 or john.smith@example.no.';
    const words = transcriptWords(text);
    expect(words.map((word) => word.text)).toEqual([
      'Hi',
      'is',
      'the',
      'Volvo',
      'still',
      'available',
      'Call',
      '4111-1111',
      'or',
      'john.smith@example.no',
    ]);
    for (const word of words) expect(text.slice(word.start, word.end)).toBe(word.text);
  });
});
