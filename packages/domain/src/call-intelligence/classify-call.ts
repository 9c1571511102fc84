import { RULE_CLASSES, type ClassificationRules, type RuleClass } from './classification-rules';
import { PhraseFinder, spokenWords, type PhraseMatch, type SpokenSegment } from './phrase-matching';

/**
 * A call's classification from what was said and its own signals (docs/call-intelligence.md,
 * Classification), with every reason that decided it.
 */
export const CALL_CLASSES = [...RULE_CLASSES, 'voicemail', 'spam', 'unknown'] as const;
export type CallClass = (typeof CALL_CLASSES)[number];

/** What the call record knows besides the words. */
export interface CallSignals {
  voicemail: boolean;
  spam: boolean;
  durationSeconds: number;
  /** No earlier call from this number to the partner. */
  firstTimeCaller: boolean;
}

export type SignalName = 'spam' | 'voicemail' | 'short_call' | 'long_first_call';

export type ClassificationReason =
  ({ rule: RuleClass } & PhraseMatch) | { rule: 'signal'; signal: SignalName; detail: string };

export interface KeywordHit extends PhraseMatch {
  keyword: string;
}

export interface CallClassification {
  classification: CallClass;
  reasons: ClassificationReason[];
  keywordsSpotted: string[];
  keywordHits: KeywordHit[];
}

/** When words decide nothing: a call this short was no conversation. */
export const SHORT_CALL_SECONDS = 15;
/** When words decide nothing: a first-time caller who talked this long was most likely buying. */
export const LONG_FIRST_CALL_SECONDS = 90;

/**
 * Which matched class wins when several did: a caller who dialled wrongly or is already a customer
 * was no new lead whatever else was said, and "not interested" outweighs a question about the price.
 */
const PRECEDENCE: readonly RuleClass[] = ['wrong_number', 'existing_customer', 'not_a_lead', 'lead'];

export function classifyCall(
  segments: readonly SpokenSegment[],
  rules: ClassificationRules,
  signals: CallSignals,
): CallClassification {
  const finder = new PhraseFinder(spokenWords(segments));
  const matches: Array<{ rule: RuleClass } & PhraseMatch> = [];
  for (const rule of RULE_CLASSES)
    for (const phrase of rules[rule]) {
      const match = finder.find(phrase);
      if (match !== undefined) matches.push({ rule, ...match });
    }
  matches.sort((a, b) => a.at - b.at);
  const keywordHits: KeywordHit[] = [];
  for (const keyword of rules.keywords) {
    const match = finder.find(keyword);
    if (match !== undefined) keywordHits.push({ keyword, ...match });
  }
  keywordHits.sort((a, b) => a.at - b.at);
  const keywordsSpotted = keywordHits.map((hit) => hit.keyword);

  if (signals.spam)
    return {
      classification: 'spam',
      reasons: [signal('spam', 'the call was marked as spam'), ...matches],
      keywordsSpotted,
      keywordHits,
    };
  const winner = PRECEDENCE.find((rule) => matches.some((match) => match.rule === rule));
  if (winner !== undefined) return { classification: winner, reasons: matches, keywordsSpotted, keywordHits };
  const [classification, reason] = fromSignals(signals);
  return { classification, reasons: reason === undefined ? [] : [reason], keywordsSpotted, keywordHits };
}

function fromSignals(signals: CallSignals): [CallClass, ClassificationReason | undefined] {
  if (signals.voicemail)
    return ['voicemail', signal('voicemail', 'a voicemail, and no rule matched its words')];
  if (signals.durationSeconds < SHORT_CALL_SECONDS)
    return [
      'not_a_lead',
      signal('short_call', `answered for less than ${SHORT_CALL_SECONDS} s, and no rule matched`),
    ];
  if (signals.firstTimeCaller && signals.durationSeconds >= LONG_FIRST_CALL_SECONDS)
    return [
      'lead',
      signal(
        'long_first_call',
        `a first-time caller talked ${LONG_FIRST_CALL_SECONDS} s or more, and no rule matched`,
      ),
    ];
  return ['unknown', undefined];
}

function signal(name: SignalName, detail: string): ClassificationReason {
  return { rule: 'signal', signal: name, detail };
}
