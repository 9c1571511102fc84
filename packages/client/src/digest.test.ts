import { digestAuthorization, DigestSession, parseDigestChallenges } from './digest';

// RFC 7616, section 3.9.1: the same request answered with MD5 and with SHA-256.
const RFC_CHALLENGE = {
  realm: 'http-auth@example.org',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  qop: 'auth',
  opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
  stale: false,
};
const RFC_REQUEST = {
  username: 'Mufasa',
  password: 'Circle of Life',
  method: 'GET',
  uri: '/dir/index.html',
  nc: 1,
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
};

describe('digestAuthorization', () => {
  it.each([
    ['MD5', '8ca523f5e9506fed4657c9700eebdbec'],
    ['SHA-256', '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1'],
  ])('gives the response of the RFC 7616 example for %s', (algorithm, response) => {
    const header = digestAuthorization({ ...RFC_REQUEST, challenge: { ...RFC_CHALLENGE, algorithm } });
    expect(header).toContain(`response="${response}"`);
    expect(header).toContain('nc=00000001');
    expect(header).toContain('qop=auth');
    expect(header).toContain(`opaque="${RFC_CHALLENGE.opaque}"`);
  });
});

describe('parseDigestChallenges', () => {
  it('splits the two challenges Node joins into one header, keeping stale', () => {
    const header =
      'Digest realm="Trackline", qop="auth", algorithm=MD5, nonce="n1", stale=false, ' +
      'Digest realm="Trackline", qop="auth", algorithm=SHA-256, nonce="n1", stale=true';
    expect(parseDigestChallenges(header).map((challenge) => [challenge.algorithm, challenge.stale])).toEqual([
      ['MD5', false],
      ['SHA-256', true],
    ]);
  });
});

describe('DigestSession', () => {
  it('counts uses of one nonce and starts over on a new challenge', () => {
    const session = new DigestSession('acme-api', 'secret', 'SHA-256');
    expect(session.ready).toBe(false);
    expect(session.adopt('Digest realm="T", qop="auth", algorithm=MD5, nonce="only-md5"')).toBe(false);
    expect(session.adopt('Digest realm="T", qop="auth", algorithm=SHA-256, nonce="a"')).toBe(true);
    const counts = [1, 2, 3].map(() => /nc=(\w+)/.exec(session.authorize('GET', '/v1/customers'))![1]);
    expect(counts).toEqual(['00000001', '00000002', '00000003']);
    session.adopt('Digest realm="T", qop="auth", algorithm=SHA-256, nonce="b", stale=true');
    expect(session.authorize('GET', '/v1/customers')).toMatch(/nonce="b".*nc=00000001/);
  });
});
