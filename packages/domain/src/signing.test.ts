import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { signBody, verifySignature } from './signing';

describe('signBody', () => {
  it('matches the RFC 2202 HMAC-SHA1 test vector', () => {
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79');
  });

  it('signs buffers and strings with the same bytes alike', () => {
    const body = '{"advId":"finn","replace":["22 33 44 55"]}';
    expect(signBody('s3cret', Buffer.from(body, 'utf8'))).toBe(signBody('s3cret', body));
    expect(signBody('s3cret', body)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('depends on every byte of the raw body', () => {
    expect(signBody('s3cret', '{"a":1}')).not.toBe(signBody('s3cret', '{"a": 1}'));
  });
});

describe('verifySignature', () => {
  const secret = 'partner-secret';
  const body = Buffer.from('{"advId":"finn"}');
  const good = createHmac('sha1', secret).update(body).digest('hex');

  it('accepts the right signature', () => {
    expect(verifySignature(secret, body, good)).toBe(true);
    expect(verifySignature(secret, body.toString('utf8'), good)).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['uppercase hex', good.toUpperCase()],
    ['too short', good.slice(0, 39)],
    ['too long', `${good}0`],
    ['non-hex', `${good.slice(0, 39)}g`],
    ['odd whitespace', ` ${good.slice(1)}`],
    ['another secret', createHmac('sha1', 'other').update(body).digest('hex')],
    ['sha256', createHmac('sha256', secret).update(body).digest('hex')],
  ])('rejects a signature that is %s', (_label, signature) => {
    expect(verifySignature(secret, body, signature)).toBe(false);
  });

  it('rejects the signature of any other body', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        fc.pre(!Buffer.from(a).equals(Buffer.from(b)));
        return !verifySignature(secret, Buffer.from(b), signBody(secret, Buffer.from(a)));
      }),
    );
  });

  it('accepts what signBody produced for any body and secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.uint8Array(), (s, bytes) =>
        verifySignature(s, Buffer.from(bytes), signBody(s, Buffer.from(bytes))),
      ),
    );
  });
});
