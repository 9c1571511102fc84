import { digitLanguage, digitRuns, passesLuhn, type DigitRun } from './spoken-digits';
import { transcriptWords, type TranscriptWord } from './transcript-words';

/**
 * Redaction of a transcript before anything stores or sends it (docs/call-intelligence.md,
 * Redaction): card numbers become `[card]`, e-mail addresses `[email]`, phone numbers `[phone]`,
 * written or spoken. Each kind can be switched off per partner; all are on by default.
 */
export interface RedactionSwitches {
  cards: boolean;
  emails: boolean;
  phones: boolean;
}

export const DEFAULT_REDACTION: RedactionSwitches = { cards: true, emails: true, phones: true };

export const REDACTION_LABELS = { card: '[card]', email: '[email]', phone: '[phone]' } as const;

interface Cut {
  start: number;
  end: number;
  label: string;
}

const CARD_DIGITS = { min: 13, max: 19 };
/** Fewer digits than this are a price, a year or a model, not a phone number. */
const PHONE_MIN_DIGITS = 7;
const AT_WORDS = new Set(['at', 'krollalfa', 'alfakroll']);
const DOT_WORDS = new Set(['dot', 'punktum', 'prikk']);
const JOIN_WORDS = new Set(['dot', 'punktum', 'prikk', 'underscore', 'understrek', 'dash', 'bindestrek']);
const TOP_LEVEL_DOMAIN = /^[a-z]{2,6}$/;
const WRITTEN_EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
/** Money words: "1 250 000 kroner" is a price, though it has seven digits. */
const CURRENCY_WORDS = new Set([
  'kr',
  'kroner',
  'krone',
  'nok',
  'dollars',
  'dollar',
  'usd',
  'eur',
  'euro',
  'euros',
]);
const THOUSANDS = /^\d{1,3}$/;

/** The text with what switches name replaced by its label; language picks the digit words. */
export function redactText(text: string, switches: RedactionSwitches, language?: string | null): string {
  return applyCuts(text, findCuts(text, switches, language));
}

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/**
 * Each segment's text redacted; a number or address that runs on into the next segment (engines cut
 * segments at pauses) is read across the cut, and its label stands where it began.
 */
export function redactSegments<T extends TimedText>(
  segments: readonly T[],
  switches: RedactionSwitches,
  language?: string | null,
): T[] {
  const bounds: Array<{ start: number; end: number }> = [];
  let joined = '';
  for (const segment of segments) {
    if (joined !== '') joined += '\n';
    bounds.push({ start: joined.length, end: joined.length + segment.text.length });
    joined += segment.text;
  }
  const cuts = findCuts(joined, switches, language);
  return segments.map((segment, i) => {
    const { start, end } = bounds[i]!;
    const own = cuts
      .filter((cut) => cut.start < end && cut.end > start)
      .map((cut) => ({
        start: Math.max(cut.start, start) - start,
        end: Math.min(cut.end, end) - start,
        // A cut that began in an earlier segment leaves nothing here.
        label: cut.start >= start ? cut.label : '',
      }));
    return {
      ...segment,
      text: applyCuts(segment.text, own)
        .replace(/\s{2,}/g, ' ')
        .trim(),
    };
  });
}

function findCuts(text: string, switches: RedactionSwitches, language?: string | null): Cut[] {
  if (!switches.cards && !switches.emails && !switches.phones) return [];
  const words = transcriptWords(text);
  const cuts: Cut[] = switches.emails ? emailCuts(words) : [];
  // Cuts come in text order, so one walk along them finds the words outside every address.
  let next = 0;
  const free = words.filter((word) => {
    while (next < cuts.length && cuts[next]!.end <= word.start) next++;
    const cut = cuts[next];
    return cut === undefined || word.end <= cut.start;
  });
  for (const run of digitRuns(text, free, digitLanguage(language)))
    cuts.push(...numberCuts(text, run, words, switches));
  return cuts.sort((a, b) => a.start - b.start);
}

function applyCuts(text: string, cuts: readonly Cut[]): string {
  let result = '';
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a.start - b.start)) {
    if (cut.start < at) continue;
    result += text.slice(at, cut.start) + cut.label;
    at = cut.end;
  }
  return result + text.slice(at);
}

/** Written addresses (john.smith@example.no) and spoken ones (john dot smith at example dot no). */
function emailCuts(words: TranscriptWord[]): Cut[] {
  const cuts: Cut[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (WRITTEN_EMAIL.test(word.text)) {
      cuts.push({ start: word.start, end: word.end, label: REDACTION_LABELS.email });
      continue;
    }
    if (!AT_WORDS.has(word.folded) || i === 0) continue;
    const domainEnd = spokenDomainEnd(words, i + 1);
    if (domainEnd === undefined) continue;
    // The local part: the word before "at", and words joined to it by "dot", "underscore", …
    let first = i - 1;
    while (first >= 2 && JOIN_WORDS.has(words[first - 1]!.folded)) first -= 2;
    cuts.push({ start: words[first]!.start, end: words[domainEnd]!.end, label: REDACTION_LABELS.email });
    i = domainEnd;
  }
  return cuts;
}

/** Index of the last word of a spoken domain starting at from ("example dot no", "gmail.com"), if one is there. */
function spokenDomainEnd(words: TranscriptWord[], from: number): number | undefined {
  const first = words[from];
  if (first === undefined) return undefined;
  if (/^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.[a-z]{2,6}$/iu.test(first.text)) return from;
  let last = from;
  let dots = 0;
  while (DOT_WORDS.has(words[last + 1]?.folded ?? '') && words[last + 2] !== undefined) {
    last += 2;
    dots += 1;
  }
  return dots > 0 && TOP_LEVEL_DOMAIN.test(words[last]!.folded) ? last : undefined;
}

/**
 * A run of digits: the longest stretch of whole words that is a Luhn-valid card number (13–19
 * digits) becomes `[card]`, and what is left on either side, or the whole run without a card, of
 * seven digits or more becomes `[phone]`.
 */
function numberCuts(text: string, run: DigitRun, all: TranscriptWord[], switches: RedactionSwitches): Cut[] {
  const card = switches.cards ? longestCard(run) : undefined;
  if (card === undefined) return phoneCut(text, run, 0, run.words.length, all, switches);
  return [
    ...phoneCut(text, run, 0, card.from, all, switches),
    { start: run.words[card.from]!.start, end: run.words[card.to - 1]!.end, label: REDACTION_LABELS.card },
    ...phoneCut(text, run, card.to, run.words.length, all, switches),
  ];
}

function longestCard(run: DigitRun): { from: number; to: number } | undefined {
  let best: { from: number; to: number; length: number } | undefined;
  for (let from = 0; from < run.words.length; from++) {
    let digits = '';
    for (let to = from + 1; to <= run.words.length; to++) {
      digits += run.digits[to - 1];
      if (digits.length > CARD_DIGITS.max) break;
      if (digits.length < CARD_DIGITS.min || run.digits[from] === '' || !passesLuhn(digits)) continue;
      if (best === undefined || digits.length > best.length) best = { from, to, length: digits.length };
    }
  }
  return best;
}

function phoneCut(
  text: string,
  run: DigitRun,
  from: number,
  to: number,
  all: TranscriptWord[],
  switches: RedactionSwitches,
): Cut[] {
  if (!switches.phones || from >= to) return [];
  // "+47 …" and "(555) …": the sign and the bracket go with the number.
  let start = run.words[from]!.start;
  while (start > 0 && (text[start - 1] === '+' || text[start - 1] === '(')) start -= 1;
  const digits = run.digits.slice(from, to).join('');
  if (digits.length < PHONE_MIN_DIGITS || isPrice(run.words.slice(from, to), all)) return [];
  return [
    {
      start,
      end: run.words[to - 1]!.end,
      label: REDACTION_LABELS.phone,
    },
  ];
}

/** Written thousands ("1 250 000") next to a money word. */
function isPrice(words: TranscriptWord[], all: TranscriptWord[]): boolean {
  const grouped = words.every((word, i) => (i === 0 ? THOUSANDS.test(word.text) : /^\d{3}$/.test(word.text)));
  if (!grouped || words.length < 2) return false;
  const at = words[0]!.index;
  const before = all[at - 1]?.folded;
  const after = all[at + words.length]?.folded;
  return CURRENCY_WORDS.has(before ?? '') || CURRENCY_WORDS.has(after ?? '');
}
