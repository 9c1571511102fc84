import {
  WITHHELD_CALLER,
  type CallerHistoryStore,
  type PartnerConfig,
  type SourceSpamPolicy,
} from '@trackline/contracts';
import {
  DEFAULT_SPAM_THRESHOLD,
  EMPTY_CALLER_HISTORY,
  isJudgedSpam,
  scoreSpam,
  type SpamPolicy,
  type SpamScore,
} from '@trackline/domain';

export interface VoiceCall {
  /** In the partner's one stored form (the attribution's `anum`). */
  anum: string;
  bnum: string;
  stirVerstat: string | null;
  atMs: number;
}

export interface SpamVerdict extends SpamScore {
  /** What the voice answer does: the policy in force when the call is judged spam, else `allow`. */
  handling: SpamPolicy;
}

/**
 * The call's score at the voice webhook (docs/spam.md): everything but the duration, which is not
 * known yet. Notes the call in the caller's history on the way. A withheld caller has no history
 * of its own (every withheld caller would share one), so only its verification counts.
 *
 * The policy in force is the source's when it has one, else the partner's; a source's policy
 * without a threshold of its own judges by the partner's (docs/spam.md, Per source).
 */
export async function judgeVoiceCall(
  history: Pick<CallerHistoryStore, 'noteCall'>,
  partner: PartnerConfig,
  call: VoiceCall,
  source: SourceSpamPolicy | null = null,
): Promise<SpamVerdict> {
  const standing =
    call.anum === WITHHELD_CALLER
      ? { listed: null, history: EMPTY_CALLER_HISTORY }
      : await history.noteCall(partner.advId, call.anum, call.bnum, call.atMs);
  const score = scoreSpam({ stirVerstat: call.stirVerstat, ...standing, durationSeconds: null });
  const threshold = source?.threshold ?? partner.spamThreshold ?? DEFAULT_SPAM_THRESHOLD;
  const policy = source?.policy ?? partner.spamPolicy ?? 'allow';
  return { ...score, handling: isJudgedSpam(score, threshold) ? policy : 'allow' };
}
