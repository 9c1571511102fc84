import {
  greetingAudioSignature,
  greetingAudioSignatureMatches,
  providerSignature,
  providerSignatureMatches,
  type FormField,
} from './provider-signature';

// Twilio's published example (its request-validation documentation and its libraries' tests).
const TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const FIELDS: FormField[] = [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', '+14158675309'],
  ['Digits', '1234'],
  ['From', '+14158675309'],
  ['To', '+18005551212'],
];
const EXPECTED = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe('providerSignature', () => {
  it('gives Twilio’s published test vector', () => {
    expect(providerSignature(TOKEN, URL, FIELDS)).toBe(EXPECTED);
  });

  it('does not depend on the order the fields arrive in', () => {
    expect(providerSignature(TOKEN, URL, [...FIELDS].reverse())).toBe(EXPECTED);
  });

  it('accepts the vector and refuses any change to token, URL, field or signature', () => {
    expect(providerSignatureMatches(TOKEN, URL, FIELDS, EXPECTED)).toBe(true);
    expect(providerSignatureMatches('12346', URL, FIELDS, EXPECTED)).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL.replace('bar=2', 'bar=3'), FIELDS, EXPECTED)).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL.replace('https:', 'http:'), FIELDS, EXPECTED)).toBe(false);
    const changed = FIELDS.map(([name, value]): FormField => [name, name === 'Digits' ? '1235' : value]);
    expect(providerSignatureMatches(TOKEN, URL, changed, EXPECTED)).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL, [...FIELDS, ['Extra', '']], EXPECTED)).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL, FIELDS, EXPECTED.slice(0, -1))).toBe(false);
  });

  it('never matches without a token or a signature', () => {
    expect(providerSignatureMatches('', URL, FIELDS, providerSignature('', URL, FIELDS))).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL, FIELDS, undefined)).toBe(false);
    expect(providerSignatureMatches(TOKEN, URL, FIELDS, '')).toBe(false);
  });

  it('takes repeated names in value order and non-ASCII text as UTF-8', () => {
    expect(
      providerSignature(TOKEN, URL, [
        ['x', '2'],
        ['x', '1'],
      ]),
    ).toBe(
      providerSignature(TOKEN, URL, [
        ['x', '1'],
        ['x', '2'],
      ]),
    );
    expect(providerSignature(TOKEN, URL, [['CallerName', 'Åse Ødegård']])).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });
});

describe('greeting audio links', () => {
  const now = Date.UTC(2026, 0, 1);
  const expires = now / 1000 + 600;

  it('match for the same greeting and expiry until the expiry passes', () => {
    const sig = greetingAudioSignature(TOKEN, '42', expires);
    expect(greetingAudioSignatureMatches(TOKEN, '42', expires, sig, now)).toBe(true);
    expect(greetingAudioSignatureMatches(TOKEN, '43', expires, sig, now)).toBe(false);
    expect(greetingAudioSignatureMatches(TOKEN, '42', expires + 1, sig, now)).toBe(false);
    expect(greetingAudioSignatureMatches(TOKEN, '42', expires, sig, expires * 1000)).toBe(false);
    expect(greetingAudioSignatureMatches('other', '42', expires, sig, now)).toBe(false);
  });
});
