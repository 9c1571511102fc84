import { signReplacementBody } from './replacement-client';

describe('signReplacementBody', () => {
  it('is the HMAC-SHA1 of the exact bytes in lowercase hex', () => {
    // HMAC-SHA1("key", "The quick brown fox jumps over the lazy dog"), a widely published vector.
    expect(signReplacementBody('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9',
    );
  });
});
