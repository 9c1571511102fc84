import fc from 'fast-check';
import { MAX_AUTHORIZATION_LENGTH, parseDigestAuthorization } from './digest-header';

function paramsOf(header: string): Record<string, string> {
  const parsed = parseDigestAuthorization(header);
  if (!parsed.ok) throw new Error(parsed.reason);
  return Object.fromEntries(parsed.params);
}

describe('parseDigestAuthorization', () => {
  it("reads curl's header: quoted and token values, names in any case", () => {
    expect(
      paramsOf(
        'Digest username="acme-api", realm="Trackline", nonce="abc=", uri="/v1/customers?page=1", ' +
          'cnonce="Zm9v", nc=00000001, qop=auth, response="0123abcd", ALGORITHM=MD5',
      ),
    ).toEqual({
      username: 'acme-api',
      realm: 'Trackline',
      nonce: 'abc=',
      uri: '/v1/customers?page=1',
      cnonce: 'Zm9v',
      nc: '00000001',
      qop: 'auth',
      response: '0123abcd',
      algorithm: 'MD5',
    });
  });

  it('unescapes quoted-pairs and keeps commas inside quotes', () => {
    expect(paramsOf('digest username="a\\"b,c", realm = "x"')).toEqual({ username: 'a"b,c', realm: 'x' });
  });

  it('keeps prototype names as plain keys', () => {
    const parsed = parseDigestAuthorization('Digest __proto__="x", constructor="y"');
    expect(parsed.ok && [...parsed.params.entries()]).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
  });

  it.each([
    ['Basic dXNlcjpwYXNz', 'Digest authentication required'],
    ['Digest username="open', 'Malformed digest credentials'],
    ['Digest username="a", username="b"', 'Malformed digest credentials'],
    ['Digest username', 'Malformed digest credentials'],
    ['Digest username="a" realm="b"', 'Malformed digest credentials'],
    ['Digest ="a"', 'Malformed digest credentials'],
  ])('refuses %j', (header, reason) => {
    expect(parseDigestAuthorization(header)).toEqual({ ok: false, reason });
  });

  it('refuses a header longer than the bound before parsing it', () => {
    const header = `Digest username="${'x'.repeat(MAX_AUTHORIZATION_LENGTH)}"`;
    expect(parseDigestAuthorization(header)).toEqual({
      ok: false,
      reason: `Authorization header must be at most ${MAX_AUTHORIZATION_LENGTH} characters`,
    });
  });

  it('reads back any parameters written as quoted strings', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.string({ maxLength: 30 })), { selector: ([n]) => n }),
        (params) => {
          const header = `Digest ${params
            .map(([n, v]) => `${n}="${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)
            .join(', ')}`;
          expect(paramsOf(header)).toEqual(Object.fromEntries(params));
        },
      ),
      { seed: 11 },
    );
  });
});
