import {
  WITHHELD_CALLER,
  type CallAttribution,
  type CallerHistoryStore,
  type CallerStanding,
} from '@trackline/contracts';
import {
  DEFAULT_SPAM_THRESHOLD,
  EMPTY_CALLER_HISTORY,
  isJudgedSpam,
  SPAM_HISTORY,
  scoreSpam,
  type SpamReason,
} from '@trackline/domain';
import type { DialledNumber } from './cdr';
import type { CdrInput } from './cdr-input';

/** What the record says about spam (docs/spam.md). */
export interface SpamJudgement {
  stirVerstat: string | null;
  spamScore: number;
  spamReasons: SpamReason[];
  /** Earns no commission and notifies no missed call. */
  spam: boolean;
}

/** The caller's history and the partner's lists, as the record reads and feeds them. */
export type CallerHistory = Pick<CallerHistoryStore, 'noteCall' | 'noteShortCall'>;

const NO_STANDING: CallerStanding = { listed: null, history: EMPTY_CALLER_HISTORY };

/**
 * The caller's standing when the record is stored, read beside the batch's lookups: the call is noted in
 * the caller's history (again, for a provider call the voice webhook already noted) on the way.
 * A withheld caller has no history of its own.
 */
export async function callerStanding(
  history: CallerHistory,
  dialled: DialledNumber,
  call: Pick<CdrInput, 'anum' | 'bnum' | 'start'>,
): Promise<CallerStanding> {
  if (call.anum === WITHHELD_CALLER) return NO_STANDING;
  return history.noteCall(dialled.advId, call.anum, call.bnum, call.start.getTime());
}

/**
 * The final score of a call, once its duration is known: the verification the voice webhook kept
 * with the attribution, the caller's standing, and the call's own length.
 */
export function judgeSpam(
  dialled: DialledNumber,
  call: Pick<CdrInput, 'durationSeconds'>,
  attribution: CallAttribution | null,
  standing: CallerStanding,
): SpamJudgement {
  const stirVerstat = attribution?.stirVerstat ?? null;
  const score = scoreSpam({ stirVerstat, ...standing, durationSeconds: call.durationSeconds });
  return {
    stirVerstat,
    spamScore: score.score,
    spamReasons: score.reasons,
    spam: isJudgedSpam(score, dialled.spamThreshold ?? DEFAULT_SPAM_THRESHOLD),
  };
}

/** After the record committed: a short call counts against the caller's later calls. */
export async function noteStoredCall(
  history: CallerHistory,
  dialled: DialledNumber,
  call: Pick<CdrInput, 'anum' | 'callId' | 'start' | 'durationSeconds'>,
): Promise<void> {
  if (call.anum === WITHHELD_CALLER || call.durationSeconds > SPAM_HISTORY.shortCallSeconds) return;
  await history.noteShortCall(dialled.advId, call.anum, call.callId, call.start.getTime());
}
