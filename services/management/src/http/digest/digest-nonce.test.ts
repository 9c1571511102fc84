import { NO_EPOCH, NonceIssuer } from './digest-nonce';

const EPOCH = '0123456789abcdef';
const AT = new Date('2026-11-25T06:00:00Z');

describe('NonceIssuer', () => {
  const issuer = new NonceIssuer('a-secret-of-at-least-32-characters!!', 300_000);

  it('names the epoch it was issued under, inside the MAC', () => {
    const nonce = issuer.issue(AT, EPOCH);
    expect(issuer.check(nonce, AT)).toEqual({
      state: 'valid',
      expiresAt: AT.getTime() + 300_000,
      epoch: EPOCH,
    });
    // Another epoch written into the nonce breaks its MAC: an old nonce cannot be moved to a new epoch.
    const moved = nonce.replace(EPOCH, 'fedcba9876543210');
    expect(moved).not.toBe(nonce);
    expect(issuer.check(moved, AT)).toEqual({ state: 'invalid' });
  });

  it('expires after its lifetime whatever the epoch', () => {
    const nonce = issuer.issue(AT, EPOCH);
    expect(issuer.check(nonce, new Date(AT.getTime() + 299_999)).state).toBe('valid');
    expect(issuer.check(nonce, new Date(AT.getTime() + 300_000))).toEqual({ state: 'stale' });
  });

  it('names no epoch while none is known, and refuses nonces of another key or shape', () => {
    expect(issuer.check(issuer.issue(AT, ''), AT)).toEqual(expect.objectContaining({ epoch: NO_EPOCH }));
    const other = new NonceIssuer('another-secret-of-at-least-32-chars!', 300_000);
    expect(issuer.check(other.issue(AT, EPOCH), AT)).toEqual({ state: 'invalid' });
    expect(issuer.check('abc', AT)).toEqual({ state: 'invalid' });
  });
});
