import type { CallerStanding, PartnerConfig } from '@trackline/contracts';
import { EMPTY_CALLER_HISTORY } from '@trackline/domain';
import { judgeVoiceCall, type VoiceCall } from './spam-screening';

const PARTNER: PartnerConfig = {
  advId: 'acme',
  signingSecret: 'secret',
  country: 'NO',
  timeZone: 'Europe/Oslo',
  sessionTtlSeconds: 1800,
  holdBackSeconds: 600,
  onExhausted: 'recycle',
  fallbackNumber: null,
};
const CALL: VoiceCall = { anum: '+4791234567', bnum: '+4721000001', stirVerstat: null, atMs: 1_000 };

function history(standing: CallerStanding) {
  const noted: unknown[][] = [];
  return {
    noted,
    store: {
      noteCall: async (...args: unknown[]) => {
        noted.push(args);
        return standing;
      },
    },
  };
}

describe('judgeVoiceCall', () => {
  it('notes the call and answers the policy only for a call judged spam', async () => {
    const quiet = history({ listed: null, history: EMPTY_CALLER_HISTORY });
    const reject = { ...PARTNER, spamPolicy: 'reject' as const };
    expect(await judgeVoiceCall(quiet.store, reject, CALL)).toEqual({
      score: 0,
      reasons: [],
      handling: 'allow',
    });
    expect(quiet.noted).toEqual([['acme', '+4791234567', '+4721000001', 1_000]]);
    const failed = await judgeVoiceCall(quiet.store, reject, {
      ...CALL,
      stirVerstat: 'TN-Validation-Failed',
    });
    expect(failed).toEqual({ score: 70, reasons: ['attestation_failed'], handling: 'reject' });
  });

  it("uses the source's policy over the partner's, with the partner's threshold when it has none", async () => {
    const burst = history({
      listed: null,
      history: { shortCalls: 0, recentNumbers: 3, markedSpam: 0, markedNotSpam: 0 },
    });
    const lenient = { ...PARTNER, spamPolicy: 'allow' as const, spamThreshold: 30 };
    const reject = { policy: 'reject' as const, threshold: null };
    expect((await judgeVoiceCall(burst.store, lenient, CALL, reject)).handling).toBe('reject');
    expect((await judgeVoiceCall(burst.store, lenient, CALL, { ...reject, threshold: 31 })).handling).toBe(
      'allow',
    );
    const strictPartner = { ...PARTNER, spamPolicy: 'reject' as const, spamThreshold: 30 };
    expect(
      (await judgeVoiceCall(burst.store, strictPartner, CALL, { policy: 'allow', threshold: null })).handling,
    ).toBe('allow');
    expect((await judgeVoiceCall(burst.store, strictPartner, CALL, null)).handling).toBe('reject');
  });

  it('uses the partner threshold, and allows when no policy is set', async () => {
    const burst = history({
      listed: null,
      history: { shortCalls: 0, recentNumbers: 3, markedSpam: 0, markedNotSpam: 0 },
    });
    const strict = { ...PARTNER, spamPolicy: 'voicemail' as const, spamThreshold: 30 };
    expect((await judgeVoiceCall(burst.store, strict, CALL)).handling).toBe('voicemail');
    expect((await judgeVoiceCall(burst.store, { ...strict, spamThreshold: 31 }, CALL)).handling).toBe(
      'allow',
    );
    const blocked = history({ listed: 'block', history: EMPTY_CALLER_HISTORY });
    expect((await judgeVoiceCall(blocked.store, PARTNER, CALL)).handling).toBe('allow');
    expect(
      (await judgeVoiceCall(blocked.store, { ...PARTNER, spamPolicy: 'challenge' }, CALL)).handling,
    ).toBe('challenge');
  });

  it('never reads a history for a withheld caller', async () => {
    const none = history({ listed: 'block', history: EMPTY_CALLER_HISTORY });
    const verdict = await judgeVoiceCall(
      none.store,
      { ...PARTNER, spamPolicy: 'reject' },
      {
        ...CALL,
        anum: 'anonymous',
        stirVerstat: 'No-TN-Validation',
      },
    );
    expect(verdict).toEqual({ score: 10, reasons: ['no_attestation'], handling: 'allow' });
    expect(none.noted).toEqual([]);
  });
});
