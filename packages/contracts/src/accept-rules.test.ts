import {
  ANUM_RULE,
  canonicalAnum,
  CALL_ID_RULE,
  callIdProblem,
  characterCount,
  parameterLimit,
  readAnum,
  TEXT_LIMITS,
  textProblem,
  toStorableText,
  WITHHELD_CALLER,
} from './accept-rules';
import { isStorableText, UNSTORABLE_TEXT_RULE } from './text-rules';

describe('call_id rule', () => {
  it.each(['c1', 'CA0123456789abcdef0123456789abcdef', 'x'.repeat(128), 'a:b/c=d', '~!'])(
    'accepts %j',
    (id) => {
      expect(callIdProblem(id)).toBeUndefined();
    },
  );

  it.each(['', 'a b', 'x'.repeat(129), 'blå', 'tab\there', 'nul\u0000', 'emoji🚗'])('refuses %j', (id) => {
    expect(callIdProblem(id)).toBe(CALL_ID_RULE);
  });
});

describe('anum rule', () => {
  it('reads empty and wordy callers as the one withheld form', () => {
    for (const withheld of ['', ' ', WITHHELD_CALLER, 'restricted', 'Unknown Caller', 'PRIVATE'])
      expect(readAnum(withheld)).toEqual({ anum: WITHHELD_CALLER });
  });

  it('keeps numbers in any spelling, without their spaces', () => {
    expect(readAnum('+4791234567')).toEqual({ anum: '+4791234567' });
    expect(readAnum('91234567')).toEqual({ anum: '91234567' });
    expect(readAnum('+47 912 34 567 ')).toEqual({ anum: '+4791234567' });
    expect(readAnum('9'.repeat(32))).toEqual({ anum: '9'.repeat(32) });
  });

  it.each(['9'.repeat(33), 'ø1', '1\u0000', 'blå'])('refuses %j', (anum) => {
    expect(readAnum(anum)).toEqual({ problem: ANUM_RULE });
  });

  it("stores a caller in E.164 read in the partner's country, anything else as read", () => {
    for (const spelling of ['91234567', '004791234567', '4791234567', '+4791234567'])
      expect(canonicalAnum(spelling, 'NO')).toBe('+4791234567');
    expect(canonicalAnum('08-123 456 78'.replace(/\s/g, ''), 'SE')).toBe('+46812345678');
    expect(canonicalAnum(WITHHELD_CALLER, 'NO')).toBe(WITHHELD_CALLER);
    expect(canonicalAnum('1881', 'NO')).toBe('1881');
  });
});

describe('text rule', () => {
  it('counts characters as code points and checks the limit', () => {
    expect(characterCount('🚗🚗')).toBe(2);
    expect(textProblem('🚗'.repeat(100), TEXT_LIMITS.trackingId)).toBeUndefined();
    expect(textProblem('x'.repeat(101), TEXT_LIMITS.trackingId)).toBe('max 100 characters');
    expect(textProblem('ø'.repeat(45), parameterLimit('custnr'))).toBeUndefined();
    expect(parameterLimit('adId')).toBe(2048);
  });

  it('refuses NUL and lone surrogates whatever the length', () => {
    expect(textProblem('a\u0000b')).toBe(UNSTORABLE_TEXT_RULE);
    expect(textProblem('\ud83d', 10)).toBe(UNSTORABLE_TEXT_RULE);
    expect(textProblem('ok 🚗')).toBeUndefined();
  });
});

describe('toStorableText', () => {
  it('leaves storable text alone, replaces what cannot be stored and cuts at the limit', () => {
    expect(toStorableText('Ærlig 🚗')).toBe('Ærlig 🚗');
    expect(toStorableText('a\u0000b\ud83dc\ude97')).toBe('a\ufffdb\ufffdc\ufffd');
    expect(toStorableText('🚗'.repeat(5), 3)).toBe('🚗🚗🚗');
    expect(toStorableText('x'.repeat(150), 100)).toHaveLength(100);
  });

  it('always answers text that passes the rule', () => {
    const samples = ['\ud800\ud800\udc00', '\u0000'.repeat(3), `${'y'.repeat(99)}\ud83d\ude97z`];
    for (const sample of samples) {
      const cleaned = toStorableText(sample, 100);
      expect(isStorableText(cleaned)).toBe(true);
      expect(textProblem(cleaned, 100)).toBeUndefined();
    }
  });
});
