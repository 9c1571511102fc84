import {
  EMPTY_CALLER_HISTORY,
  isJudgedSpam,
  readStirVerstat,
  scoreSpam,
  STIR_VERSTAT_BASES,
  type SpamEvidence,
} from './spam';

const quiet: SpamEvidence = {
  stirVerstat: null,
  listed: null,
  history: EMPTY_CALLER_HISTORY,
  durationSeconds: 60,
};

describe('readStirVerstat', () => {
  it('keeps every value the provider names, with its -Diverted and -Passthrough variants', () => {
    for (const base of STIR_VERSTAT_BASES) {
      expect(readStirVerstat(base)).toBe(base);
      expect(readStirVerstat(`${base}-Diverted`)).toBe(`${base}-Diverted`);
      expect(readStirVerstat(`${base}-Passthrough`)).toBe(`${base}-Passthrough`);
    }
  });

  it('is null when absent, empty or unknown', () => {
    expect(readStirVerstat(undefined)).toBeNull();
    expect(readStirVerstat('')).toBeNull();
    expect(readStirVerstat('TN-Validation-Passed-D')).toBeNull();
    expect(readStirVerstat('tn-validation-passed-a')).toBeNull();
  });
});

describe('scoreSpam', () => {
  it.each([
    ['TN-Validation-Passed-A', 0, []],
    ['TN-Validation-Passed-B', 5, ['attestation_b']],
    ['TN-Validation-Passed-C-Diverted', 20, ['attestation_c']],
    ['TN-Validation-Failed-A', 70, ['attestation_failed']],
    ['TN-Validation-Failed', 70, ['attestation_failed']],
    ['TN-Validation-Failed-B-Passthrough', 70, ['attestation_failed']],
    ['No-TN-Validation', 10, ['no_attestation']],
  ])('%s scores %i', (stirVerstat, score, reasons) => {
    expect(scoreSpam({ ...quiet, stirVerstat })).toEqual({ score, reasons });
  });

  it('counts the caller history and a short call', () => {
    const result = scoreSpam({
      ...quiet,
      history: { shortCalls: 3, recentNumbers: 3, markedSpam: 0, markedNotSpam: 0 },
      durationSeconds: 4,
    });
    expect(result).toEqual({ score: 75, reasons: ['repeat_short_calls', 'many_numbers', 'short_call'] });
    expect(isJudgedSpam(result, 70)).toBe(true);
    expect(isJudgedSpam(result, 80)).toBe(false);
  });

  it('stays below the patterns one short of them', () => {
    const result = scoreSpam({
      ...quiet,
      history: { shortCalls: 2, recentNumbers: 2, markedSpam: 0, markedNotSpam: 0 },
    });
    expect(result).toEqual({ score: 0, reasons: [] });
  });

  it('follows the partner marks: spam raises, not spam lowers, never below 0', () => {
    const marked = (markedSpam: number, markedNotSpam: number) =>
      scoreSpam({
        ...quiet,
        stirVerstat: 'TN-Validation-Passed-C',
        history: { ...EMPTY_CALLER_HISTORY, markedSpam, markedNotSpam },
      });
    expect(marked(1, 0)).toEqual({ score: 60, reasons: ['attestation_c', 'marked_spam'] });
    expect(marked(0, 1)).toEqual({ score: 0, reasons: ['attestation_c', 'marked_not_spam'] });
    expect(marked(1, 1)).toEqual({ score: 20, reasons: ['attestation_c'] });
  });

  it('a block-listed caller is 100 and spam at any threshold; an allow-listed one is never spam', () => {
    const blocked = scoreSpam({ ...quiet, listed: 'block', stirVerstat: 'TN-Validation-Passed-A' });
    expect(blocked).toEqual({ score: 100, reasons: ['block_listed'] });
    expect(isJudgedSpam(blocked, 100)).toBe(true);
    const allowed = scoreSpam({
      ...quiet,
      listed: 'allow',
      stirVerstat: 'TN-Validation-Failed',
      history: { shortCalls: 9, recentNumbers: 9, markedSpam: 3, markedNotSpam: 0 },
      durationSeconds: 1,
    });
    expect(allowed).toEqual({ score: 0, reasons: ['allow_listed'] });
    expect(isJudgedSpam(allowed, 0)).toBe(false);
  });

  it('scores never leave 0–100', () => {
    const worst = scoreSpam({
      stirVerstat: 'TN-Validation-Failed',
      listed: null,
      history: { shortCalls: 9, recentNumbers: 9, markedSpam: 3, markedNotSpam: 0 },
      durationSeconds: 0,
    });
    expect(worst.score).toBe(100);
  });
});
