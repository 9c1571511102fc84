/**
 * Words of a transcript as the call-intelligence rules see them (docs/call-intelligence.md): each
 * with its place in the text, so redaction can cut it out and a reason can quote it, and its folded
 * form, so "Prøvekjøring", "provekjoring" and "PRØVEKJØRING" are one word to a rule.
 */
export interface TranscriptWord {
  /** The word as the engine wrote it, without surrounding punctuation. */
  text: string;
  /** Lower case, accents and Norwegian letters folded (ø → o, æ → ae, å → a), for comparison. */
  folded: string;
  /** Offsets of `text` in the string it was read from. */
  start: number;
  end: number;
  /** Its place among the string's words. */
  index: number;
}

// A word is letters, digits and the joiners inside them (it's, e-post, 4111-1111, john.smith@x.no);
// punctuation at its edges belongs to the sentence.
const WORD = /[\p{L}\p{N}]+(?:['’.@_+-]+[\p{L}\p{N}]+)*/gu;
const COMBINING_MARKS = /\p{M}/gu;
const LETTER_FOLDS: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ł: 'l', '’': "'" };
const UNFOLDED = /[øæœßđł’]/g;
const PLAIN = /^[ -~]*$/;

/** Case, accents and Norwegian letters folded: the form rules and words are compared in. */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  // Most words of most calls are plain ASCII: nothing to decompose.
  if (PLAIN.test(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(UNFOLDED, (letter) => LETTER_FOLDS[letter] ?? letter);
}

export function transcriptWords(text: string): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    words.push({
      text: match[0],
      folded: foldWord(match[0]),
      start,
      end: start + match[0].length,
      index: words.length,
    });
  }
  return words;
}
