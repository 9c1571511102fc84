import type { TranscriptWord } from './transcript-words';

/**
 * Digits in a transcript, written ("4111", "+47", "22-33-44") or spoken ("four one one one", "fire
 * en en en", "double seven"), as redaction reads them (docs/call-intelligence.md, Redaction). The
 * words are chosen by the transcript's language: English "to" and "en" are no digits, Norwegian
 * "to" and "en" are; a transcript of unknown language is read with both.
 */
const ENGLISH_DIGITS: Record<string, string> = {
  zero: '0',
  oh: '0',
  o: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
// Folded forms (transcript-words.ts): "åtte" is "atte", "én" is "en".
const NORWEGIAN_DIGITS: Record<string, string> = {
  null: '0',
  en: '1',
  ett: '1',
  to: '2',
  tre: '3',
  fire: '4',
  fem: '5',
  seks: '6',
  sju: '7',
  syv: '7',
  atte: '8',
  ni: '9',
};
const ENGLISH_REPEATS: Record<string, number> = { double: 2, triple: 3 };
/** Words that are digits only between two other digits ("nine oh one"), never at a run's edge ("oh, I see"). */
const INNER_ONLY = new Set(['oh', 'o']);
const WRITTEN = /^\+?\d[\d().-]*$/;

export type DigitLanguage = 'en' | 'no' | 'any';

/** The engine's language code ("en", "no", "nb", "nn", "norwegian", …) as redaction reads digits in. */
export function digitLanguage(language: string | null | undefined): DigitLanguage {
  const code = (language ?? '').toLowerCase();
  if (code === 'en' || code === 'english' || code.startsWith('en-')) return 'en';
  if (['no', 'nb', 'nn', 'norwegian'].includes(code) || /^n[bno]-/.test(code)) return 'no';
  return 'any';
}

/** One word's digits, or undefined when it is no digit word; a repeat word ("double") is handled by digitRuns. */
function digitsOf(word: TranscriptWord, language: DigitLanguage): string | undefined {
  if (WRITTEN.test(word.text)) return word.text.replace(/\D/g, '');
  if (language !== 'no' && ENGLISH_DIGITS[word.folded] !== undefined) return ENGLISH_DIGITS[word.folded];
  if (language !== 'en' && NORWEGIAN_DIGITS[word.folded] !== undefined) return NORWEGIAN_DIGITS[word.folded];
  return undefined;
}

/** A run of digit words next to each other, with the digits each word stands for. */
export interface DigitRun {
  words: TranscriptWord[];
  digits: string[];
}

// Between two words of one number: spaces, commas, dashes, brackets (a full stop ends a sentence, and the number).
const INSIDE_A_NUMBER = /^[\s,;:()–-]*$/;

/** The runs of digit words in words (read from text), each at least one word long. */
export function digitRuns(text: string, words: TranscriptWord[], language: DigitLanguage): DigitRun[] {
  const runs: DigitRun[] = [];
  let current: DigitRun = { words: [], digits: [] };
  const close = () => {
    // "oh" counts only inside: drop it from the edges.
    while (current.words.length > 0 && INNER_ONLY.has(current.words[current.words.length - 1]!.folded)) {
      current.words.pop();
      current.digits.pop();
    }
    while (current.words.length > 0 && INNER_ONLY.has(current.words[0]!.folded)) {
      current.words.shift();
      current.digits.shift();
    }
    if (current.words.length > 0) runs.push(current);
    current = { words: [], digits: [] };
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const last = current.words[current.words.length - 1];
    if (last !== undefined && !INSIDE_A_NUMBER.test(text.slice(last.end, word.start))) close();
    const repeat = language === 'no' ? undefined : ENGLISH_REPEATS[word.folded];
    const next = words[i + 1];
    const repeated = repeat === undefined || next === undefined ? undefined : digitsOf(next, language);
    if (repeat !== undefined && repeated !== undefined && repeated.length === 1) {
      // "double seven": both words stand for "77".
      current.words.push(word, next!);
      current.digits.push('', repeated.repeat(repeat));
      i += 1;
      continue;
    }
    const digits = digitsOf(word, language);
    if (digits === undefined) close();
    else {
      current.words.push(word);
      current.digits.push(digits);
    }
  }
  close();
  return runs;
}

/** The Luhn check card numbers carry in their last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}
