import { ValidationError } from '../errors';
import { transcriptWords } from './transcript-words';

/**
 * A partner's classification rules (docs/call-intelligence.md, Classification): phrase lists per
 * class and the keywords to spot. A phrase is a few words; consecutive words may have a small gap
 * between them in the call ("is the car still available" matches "still available"), and a word
 * ending in `*` matches any word it begins ("financ*" matches "financing").
 */
export const RULE_CLASSES = ['lead', 'not_a_lead', 'existing_customer', 'wrong_number'] as const;
export type RuleClass = (typeof RULE_CLASSES)[number];

export interface ClassificationRules {
  lead: string[];
  not_a_lead: string[];
  existing_customer: string[];
  wrong_number: string[];
  keywords: string[];
}

export const RULE_LISTS = [...RULE_CLASSES, 'keywords'] as const;
export type RuleList = (typeof RULE_LISTS)[number];

export const RULE_LIMITS = { phrasesPerList: 200, phraseCharacters: 100, wordsPerPhrase: 8 } as const;

/**
 * Built-in rules in English and Norwegian, for a partner that has set none; written for
 * classified-ads calls (a buyer calling a seller or a dealer). A partner's own rules replace them.
 */
export const DEFAULT_CLASSIFICATION_RULES: ClassificationRules = {
  lead: [
    'still available',
    'still for sale',
    'is it available',
    'test drive',
    'interested in',
    "i'm interested",
    'how much',
    'what is the price',
    "what's the price",
    'come and see',
    'come and look',
    'book a viewing',
    'make an offer',
    'trade in',
    'fortsatt ledig',
    'fortsatt til salgs',
    'fremdeles til salgs',
    'er den ledig',
    'er bilen solgt',
    'prøvekjøre',
    'prøvekjøring',
    'interessert i',
    'hva koster',
    'hva er prisen',
    'komme og se',
    'se på bilen',
    'gi et bud',
    'innbytte',
  ],
  not_a_lead: [
    'not interested',
    'no longer interested',
    'already sold',
    'calling from',
    'special offer',
    'quick survey',
    'marketing',
    'ikke interessert',
    'allerede solgt',
    'ringer fra',
    'spørreundersøkelse',
    'tilbud på',
  ],
  existing_customer: [
    'i bought',
    'already bought',
    'my order',
    'my invoice',
    'warranty',
    'service appointment',
    'complaint',
    'jeg kjøpte',
    'allerede kjøpt',
    'min bestilling',
    'faktura',
    'garanti',
    'reklamasjon',
    'verkstedtime',
  ],
  wrong_number: [
    'wrong number',
    'who is this',
    'dialled the wrong',
    'dialed the wrong',
    'feil nummer',
    'ringte feil',
    'hvem er dette',
    'slått feil',
  ],
  keywords: ['financ*', 'warranty', 'leasing', 'lån', 'garanti', 'elbil', 'electric', 'hybrid'],
};

/**
 * Rules as a partner sends them: every list present and an array of phrases; each phrase has words,
 * at most RULE_LIMITS' length and word count; a list at most RULE_LIMITS.phrasesPerList long and
 * without repeats. Errors name the field (`lead[3]`) and the rule broken.
 */
export function parseClassificationRules(
  input: unknown,
  field = 'classification_rules',
): ClassificationRules {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ValidationError(
      field,
      'must be an object with the lists lead, not_a_lead, existing_customer, wrong_number, keywords',
    );
  const record = input as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(RULE_LISTS as readonly string[]).includes(key));
  if (unknown !== undefined)
    throw new ValidationError(unknown, `unknown class; the lists are ${RULE_LISTS.join(', ')}`);
  const rules = {} as ClassificationRules;
  for (const list of RULE_LISTS) rules[list] = parsePhraseList(record[list], list);
  return rules;
}

function parsePhraseList(value: unknown, list: RuleList): string[] {
  if (value === undefined) throw new ValidationError(list, 'required (an empty list is allowed)');
  if (!Array.isArray(value)) throw new ValidationError(list, 'must be a list of phrases');
  if (value.length > RULE_LIMITS.phrasesPerList)
    throw new ValidationError(list, `at most ${RULE_LIMITS.phrasesPerList} phrases`);
  const seen = new Set<string>();
  return value.map((phrase: unknown, i) => {
    const field = `${list}[${i}]`;
    if (typeof phrase !== 'string') throw new ValidationError(field, 'must be a string');
    const trimmed = phrase.trim().replace(/\s+/g, ' ');
    if (trimmed.length > RULE_LIMITS.phraseCharacters)
      throw new ValidationError(field, `at most ${RULE_LIMITS.phraseCharacters} characters`);
    const words = phraseWords(trimmed);
    if (words.length === 0) throw new ValidationError(field, 'must contain at least one word');
    if (words.length > RULE_LIMITS.wordsPerPhrase)
      throw new ValidationError(field, `at most ${RULE_LIMITS.wordsPerPhrase} words`);
    const key = words.join(' ');
    if (seen.has(key)) throw new ValidationError(field, 'repeats an earlier phrase of the list');
    seen.add(key);
    return trimmed;
  });
}

// Phrases are read once per process, not once per call: a partner's lists repeat on every call.
const COMPILED = new Map<string, readonly string[]>();
const COMPILED_MAX = 50_000;

/** A phrase's words in folded form; a trailing `*` (prefix match) stays on its word. */
export function phraseWords(phrase: string): readonly string[] {
  let words = COMPILED.get(phrase);
  if (words === undefined) {
    if (COMPILED.size >= COMPILED_MAX) COMPILED.clear();
    words = readPhraseWords(phrase);
    COMPILED.set(phrase, words);
  }
  return words;
}

function readPhraseWords(phrase: string): string[] {
  return phrase.split(/\s+/).flatMap((part) => {
    const prefix = part.endsWith('*');
    const words = transcriptWords(prefix ? part.slice(0, -1) : part).map((word) => word.folded);
    if (prefix && words.length > 0) words[words.length - 1] += '*';
    return words;
  });
}
