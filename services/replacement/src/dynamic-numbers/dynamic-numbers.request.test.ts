import { InvalidRequestError } from '../http/replacement-errors';
import { parseJsonBody, parseReplacementRequest, readAdvId } from './dynamic-numbers.request';

const web = {
  advId: 'acme', fullUrl: 'https://a.no/x', trackingId: 't', numbers: '22334455', type: 'web', fullReferrer: '',
  parameters: { custnr: 'C1' }, userAgent: 'UA', requestIpAddress: '203.0.113.0', sessionId: '',
}; // prettier-ignore

// As the service calls it: with the bytes the object was parsed from, as a partner's JSON encoder
// writes them (a NUL or a lone surrogate as a \u escape).
function parse(body: Record<string, unknown>) {
  return parseReplacementRequest(body, Buffer.from(JSON.stringify(body)));
}

function errorOf(body: Record<string, unknown>): string {
  try {
    parse(body);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as Error).message;
  }
  throw new Error('expected the request to be refused');
}

function without(name: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...web };
  delete copy[name];
  return copy;
}

describe('parseJsonBody', () => {
  it('accepts a JSON object only', () => {
    expect(parseJsonBody(Buffer.from('{"a":"b"}'))).toEqual({ a: 'b' });
    for (const bad of ['', 'advId=acme', '[1]', 'null', '"x"', '{"a":']) {
      expect(() => parseJsonBody(Buffer.from(bad))).toThrow('Invalid JSON: the body must be a JSON object');
    }
  });
});

describe('readAdvId', () => {
  it('names a missing or non-string advId', () => {
    expect(readAdvId({ advId: 'acme' })).toBe('acme');
    expect(() => readAdvId({})).toThrow('Missing parameter: advId');
    expect(() => readAdvId({ advId: 5 })).toThrow('Invalid parameter: advId (must be a string)');
  });
});

describe('parseReplacementRequest', () => {
  it('accepts a web request and treats an empty sessionId as none', () => {
    expect(parse(web)).toMatchObject({
      advId: 'acme',
      type: 'web',
      sessionId: null,
      userAgent: 'UA',
    });
    expect(parse(without('sessionId')).sessionId).toBeNull();
    expect(parse({ ...web, sessionId: 'abc' }).sessionId).toBe('abc');
  });

  it('names each missing web field, in the seed order', () => {
    for (const name of [
      'fullUrl',
      'trackingId',
      'numbers',
      'type',
      'fullReferrer',
      'parameters',
      'userAgent',
      'requestIpAddress',
    ]) {
      expect(errorOf(without(name))).toBe(`Missing parameter: ${name}`);
    }
    expect(errorOf({ advId: 'acme' })).toBe('Missing parameter: fullUrl');
  });

  it('does not require the web-only fields of an app request', () => {
    const app = {
      advId: 'acme',
      fullUrl: 'app://x',
      trackingId: 'u1',
      numbers: '22334455',
      type: 'app',
      fullReferrer: '',
      parameters: {},
    };
    expect(parse(app)).toMatchObject({ type: 'app', userAgent: null, sessionId: null });
    expect(errorOf({ ...app, trackingId: ' ' })).toBe(
      'Invalid parameter: trackingId (must not be empty for type app)',
    );
  });

  it('refuses non-string values, a bad type and unknown fields', () => {
    expect(errorOf({ ...web, fullUrl: 1 })).toBe('Invalid parameter: fullUrl (must be a string)');
    expect(errorOf({ ...web, numbers: ['22334455'] })).toBe('Invalid parameter: numbers (must be a string)');
    expect(errorOf({ ...web, sessionId: null })).toBe('Invalid parameter: sessionId (must be a string)');
    expect(errorOf({ ...web, type: 'tv' })).toBe('Invalid parameter: type (must be web or app)');
    expect(errorOf({ ...web, parameters: [] })).toBe('Invalid parameter: parameters (must be an object)');
    expect(errorOf({ ...web, parameters: { adKm: 12000 } })).toBe(
      'Invalid parameter: parameters.adKm (must be a string)',
    );
    expect(errorOf({ ...web, sessionID: 'x' })).toBe('Unknown parameter: sessionID');
  });

  it('enforces the parameter limits in characters', () => {
    const ok = {
      custnr: 'x'.repeat(45),
      custname: 'ø'.repeat(60),
      custemail: 'e'.repeat(150),
      adUrl: 'u'.repeat(2048),
    };
    expect(parse({ ...web, parameters: ok }).parameters).toEqual(ok);
    expect(parse({ ...web, parameters: { custname: '😀'.repeat(60) } }).parameters.custname).toHaveLength(
      120,
    );
    expect(errorOf({ ...web, parameters: { custnr: 'x'.repeat(46) } })).toBe(
      'Invalid parameter: parameters.custnr (max 45 characters)',
    );
    expect(errorOf({ ...web, parameters: { custnr: 'x'.repeat(60) } })).toBe(
      'Invalid parameter: parameters.custnr (max 45 characters)',
    );
    expect(errorOf({ ...web, parameters: { custname: 'x'.repeat(61) } })).toBe(
      'Invalid parameter: parameters.custname (max 60 characters)',
    );
    expect(errorOf({ ...web, parameters: { custemail: 'x'.repeat(151) } })).toBe(
      'Invalid parameter: parameters.custemail (max 150 characters)',
    );
    expect(errorOf({ ...web, parameters: { adImage: 'x'.repeat(2049) } })).toBe(
      'Invalid parameter: parameters.adImage (max 2048 characters)',
    );
  });

  // What a binding keeps lands on a call record: text no store can hold is refused here, naming the
  // field (docs/cdrs.md, "What both services accept").
  it.each([
    ['fullUrl', 'https://a.no/\u0000x'],
    ['fullReferrer', 'https://b.no/\ud83d'],
    ['trackingId', 'visitor\u0000'],
    ['userAgent', 'UA\udc00'],
    ['requestIpAddress', '203.0.113.0\u0000'],
    ['sessionId', '\u0000'],
  ])('refuses %s with a NUL or a lone surrogate', (name, value) => {
    expect(errorOf({ ...web, [name]: value })).toBe(
      `Invalid parameter: ${name} (must not contain NUL characters or unpaired UTF-16 surrogates)`,
    );
  });

  it('refuses parameters values and keys that cannot be stored', () => {
    expect(errorOf({ ...web, parameters: { adId: 'a\u0000' } })).toBe(
      'Invalid parameter: parameters.adId (must not contain NUL characters or unpaired UTF-16 surrogates)',
    );
    expect(errorOf({ ...web, parameters: { custnr: '\ud83d' } })).toBe(
      'Invalid parameter: parameters.custnr (must not contain NUL characters or unpaired UTF-16 surrogates)',
    );
    expect(errorOf({ ...web, parameters: { 'ad\u0000': 'x' } })).toBe(
      'Invalid parameter: parameters (keys must not contain NUL characters or unpaired UTF-16 surrogates)',
    );
    // Paired surrogates (an emoji) are ordinary text.
    expect(parse({ ...web, parameters: { adId: '🚗' } }).parameters.adId).toBe('🚗');
  });

  it('checks the length rules alone when the raw body holds no \\u escape, every rule when it does', () => {
    // A raw emoji (UTF-8 bytes, no escape) is storable text; its length still counts.
    const emoji = { ...web, parameters: { custnr: '🚗'.repeat(46) } };
    const raw = Buffer.from(JSON.stringify(emoji));
    expect(raw.includes('\\u')).toBe(false);
    expect(() => parseReplacementRequest(emoji, raw)).toThrow(
      'Invalid parameter: parameters.custnr (max 45 characters)',
    );
    // The same field escaped: the escape sends it through the NUL and surrogate check as well.
    const escaped = { ...web, parameters: { custnr: 'C\u0000' } };
    expect(() =>
      parseReplacementRequest(escaped, Buffer.from('{"parameters":{"custnr":"C\\u0000"}}')),
    ).toThrow('Invalid parameter: parameters.custnr (must not contain NUL characters');
  });

  it('holds trackingId to the 100 characters a call record keeps', () => {
    expect(parse({ ...web, trackingId: '🚗'.repeat(100) }).trackingId).toHaveLength(200);
    expect(errorOf({ ...web, trackingId: 't'.repeat(101) })).toBe(
      'Invalid parameter: trackingId (max 100 characters)',
    );
    expect(errorOf({ ...web, type: 'app', trackingId: 't'.repeat(101) })).toBe(
      'Invalid parameter: trackingId (max 100 characters)',
    );
  });

  it('holds click and analytics ids to the characters Google sends and keeps other keys as before', () => {
    const ids = {
      gclid: 'EAIaIQobChMI8-Kx_abc',
      gbraid: '0AAAAA-x_y',
      wbraid: 'CjgKEAiA_x',
      ga_client_id: '1234567890.1700000000',
      ga_session_id: '1700000000',
      gclid_note: 'any text, as a custom dimension',
    };
    expect(parse({ ...web, parameters: ids }).parameters).toEqual(ids);
    expect(errorOf({ ...web, parameters: { gclid: 'has space' } })).toBe(
      'Invalid parameter: parameters.gclid (must be 1 to 150 characters of A-Z, a-z, 0-9, "-" and "_")',
    );
    expect(errorOf({ ...web, parameters: { ga_session_id: '17e8' } })).toBe(
      'Invalid parameter: parameters.ga_session_id (must be 1 to 20 digits)',
    );
    expect(errorOf({ ...web, parameters: { ga_client_id: '' } })).toBe(
      'Invalid parameter: parameters.ga_client_id (must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "-" and "_")',
    );
  });
});
