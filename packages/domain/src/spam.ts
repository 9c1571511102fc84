/**
 * Spam and robocalls (docs/spam.md): the caller's STIR/SHAKEN verification as the provider reports
 * it, and the one scoring of a call from it, the partner's lists, the caller's recent history and
 * the call's duration. Pure: the history is counted by the caller and handed in.
 */

/** The verification results the provider names (`StirVerstat`), each also with `-Diverted` or `-Passthrough`. */
export const STIR_VERSTAT_BASES = [
  'TN-Validation-Passed-A',
  'TN-Validation-Passed-B',
  'TN-Validation-Passed-C',
  'TN-Validation-Failed-A',
  'TN-Validation-Failed-B',
  'TN-Validation-Failed-C',
  'TN-Validation-Failed',
  'No-TN-Validation',
] as const;

const STIR_VERSTAT_SUFFIXES = ['', '-Diverted', '-Passthrough'] as const;
const STIR_VERSTATS = new Set<string>(
  STIR_VERSTAT_BASES.flatMap((base) => STIR_VERSTAT_SUFFIXES.map((suffix) => `${base}${suffix}`)),
);

/** The longest value a record keeps (`stir_verstat` column). */
export const STIR_VERSTAT_MAX_LENGTH = 40;

/**
 * The provider's `StirVerstat`: a known value as sent; absent or empty (outside the US, or a call
 * without a PASSporT) is null, and so is a value the provider may add later — a call is never
 * refused for it, and an unknown verification is no evidence either way.
 */
export function readStirVerstat(value: string | undefined | null): string | null {
  if (value === undefined || value === null || value === '') return null;
  return STIR_VERSTATS.has(value) ? value : null;
}

/** Stable reason codes of `spam_reasons` (docs/spam.md, Scoring). */
export type SpamReason =
  | 'block_listed'
  | 'allow_listed'
  | 'attestation_failed'
  | 'attestation_c'
  | 'attestation_b'
  | 'no_attestation'
  | 'repeat_short_calls'
  | 'many_numbers'
  | 'short_call'
  | 'marked_spam'
  | 'marked_not_spam';

export const SPAM_REASONS: readonly SpamReason[] = [
  'block_listed',
  'allow_listed',
  'attestation_failed',
  'attestation_c',
  'attestation_b',
  'no_attestation',
  'repeat_short_calls',
  'many_numbers',
  'short_call',
  'marked_spam',
  'marked_not_spam',
];

/** What a partner does with a call judged spam at the provider's voice webhook. */
export type SpamPolicy = 'allow' | 'challenge' | 'voicemail' | 'reject';
export const SPAM_POLICIES: readonly SpamPolicy[] = ['allow', 'challenge', 'voicemail', 'reject'];

export function isSpamPolicy(value: unknown): value is SpamPolicy {
  return typeof value === 'string' && (SPAM_POLICIES as readonly string[]).includes(value);
}

/** The partner's threshold when it set none: a failed verification alone reaches it. */
export const DEFAULT_SPAM_THRESHOLD = 70;

/** Windows and limits of the caller's history (docs/spam.md, Caller history). */
export const SPAM_HISTORY = {
  /** A call at most this long (seconds) is short. */
  shortCallSeconds: 10,
  /** Short calls are counted over this window. */
  shortCallWindowMs: 24 * 3_600_000,
  /** This many short calls in the window are a pattern. */
  shortCallsForPattern: 3,
  /** Distinct tracking numbers are counted over this window. */
  numbersWindowMs: 10 * 60_000,
  /** This many distinct tracking numbers in the window are a pattern. */
  numbersForPattern: 3,
} as const;

/** The caller's recent history within the partner, as counted from its Redis structures. */
export interface CallerHistory {
  /** Short calls in the last `shortCallWindowMs`, this call not included. */
  shortCalls: number;
  /** Distinct tracking numbers called in the last `numbersWindowMs`, this call's included. */
  recentNumbers: number;
  /** Calls of this caller the partner marked spam, and not spam. */
  markedSpam: number;
  markedNotSpam: number;
}

export const EMPTY_CALLER_HISTORY: CallerHistory = {
  shortCalls: 0,
  recentNumbers: 0,
  markedSpam: 0,
  markedNotSpam: 0,
};

export interface SpamEvidence {
  stirVerstat: string | null;
  /** The caller on the partner's block or allow list. */
  listed: 'block' | 'allow' | null;
  history: CallerHistory;
  /** Null at the voice webhook, where the call has not happened yet. */
  durationSeconds: number | null;
}

export interface SpamScore {
  /** 0–100. */
  score: number;
  reasons: SpamReason[];
}

const WEIGHTS: Record<Exclude<SpamReason, 'block_listed' | 'allow_listed'>, number> = {
  attestation_failed: 70,
  attestation_c: 20,
  attestation_b: 5,
  no_attestation: 10,
  repeat_short_calls: 30,
  many_numbers: 30,
  short_call: 15,
  marked_spam: 40,
  marked_not_spam: -40,
};

/**
 * The call's score and why: an allow-listed caller is 0 whatever else is known, a block-listed one
 * 100; otherwise the weights of what applies, summed and held within 0–100.
 */
export function scoreSpam(evidence: SpamEvidence): SpamScore {
  if (evidence.listed === 'allow') return { score: 0, reasons: ['allow_listed'] };
  const reasons: SpamReason[] = [];
  const attestation = attestationReason(evidence.stirVerstat);
  if (attestation !== null) reasons.push(attestation);
  const { history } = evidence;
  if (history.shortCalls >= SPAM_HISTORY.shortCallsForPattern) reasons.push('repeat_short_calls');
  if (history.recentNumbers >= SPAM_HISTORY.numbersForPattern) reasons.push('many_numbers');
  if (evidence.durationSeconds !== null && evidence.durationSeconds <= SPAM_HISTORY.shortCallSeconds)
    reasons.push('short_call');
  if (history.markedSpam > history.markedNotSpam) reasons.push('marked_spam');
  if (history.markedNotSpam > history.markedSpam) reasons.push('marked_not_spam');
  if (evidence.listed === 'block') return { score: 100, reasons: ['block_listed', ...reasons] };
  const sum = reasons.reduce((total, reason) => total + WEIGHTS[reason as keyof typeof WEIGHTS], 0);
  return { score: Math.min(100, Math.max(0, sum)), reasons };
}

/** Judged spam: block-listed, or a score at or above the partner's threshold; never when allow-listed. */
export function isJudgedSpam(score: SpamScore, threshold: number): boolean {
  if (score.reasons.includes('allow_listed')) return false;
  return score.reasons.includes('block_listed') || score.score >= threshold;
}

function attestationReason(stirVerstat: string | null): SpamReason | null {
  if (stirVerstat === null) return null;
  const base = stirVerstat.replace(/-(Diverted|Passthrough)$/, '');
  if (base.startsWith('TN-Validation-Failed')) return 'attestation_failed';
  if (base === 'TN-Validation-Passed-C') return 'attestation_c';
  if (base === 'TN-Validation-Passed-B') return 'attestation_b';
  if (base === 'No-TN-Validation') return 'no_attestation';
  return null;
}

/** `spam_reasons` as stored and rendered: the codes, comma-separated, in the order found. */
export function renderSpamReasons(reasons: readonly SpamReason[]): string {
  return reasons.join(',');
}

/** Reads back what `renderSpamReasons` stored; a code this version does not know is dropped. */
export function readSpamReasons(stored: string | null): SpamReason[] {
  if (stored === null || stored === '') return [];
  return stored
    .split(',')
    .filter((code): code is SpamReason => (SPAM_REASONS as readonly string[]).includes(code));
}
