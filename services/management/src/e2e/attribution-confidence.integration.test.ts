import { encodeCallAttribution, partnerKeys } from '@trackline/contracts';
import { formatUtcTimestamp } from '@trackline/domain';
import {
  E2E_TIMEOUT_MS,
  startE2eEnvironment,
  type E2eEnvironment,
  type JsonAnswer,
} from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'confidence-acme',
  username: 'confidence-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
// Two pool numbers, so a third live session exhausts the pool (on_exhausted recycle, the default).
const POOL_NUMBERS = ['+4791300001', '+4791300002'];
const STATIC_NUMBER = '+4722300001';
const AT = Date.parse('2026-03-02T08:00:00Z');
const MINUTE = 60_000;
const CUSTNR = 'CONF-1';

type Body = Record<string, unknown>;

// Every call record says how sure its attribution is (docs/cdrs.md, Attribution confidence), decided
// when replacement routed the call and stored by management's ingestion: the partner's page asks
// for numbers, the switch routes and reports each call, the partner reads the records. The default
// session_ttl (1800 s) and hold_back (600 s) apply; call times are given through `at`.
describe('attribution confidence end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', STATIC_NUMBER);
  });

  afterAll(async () => {
    await env?.close();
  });

  /** A new visitor session at `now` on the replacement's clock; its pool number. */
  async function newSession(now: number): Promise<{ poolNumber: string; sessionId: string }> {
    const response = await env.visit({ at: now, trackingId: 'visitor-77', parameters: { custnr: CUSTNR } });
    expect(response.status).toBe(200);
    const body = response.body;
    const poolNumber = (body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
    return { poolNumber, sessionId: body.sessionId as string };
  }

  /** Routed at `at` and reported by the switch; the stored record as the switch is answered. */
  async function placeCall(callId: string, bnum: string, at: number): Promise<Body> {
    const start = formatUtcTimestamp(new Date(at));
    const routed: JsonAnswer = await env.route({ call_id: callId, anum: '+4798000001', bnum, at: start });
    expect(routed.status).toBe(200);
    const record = { call_id: callId, anum: '+4798000001', bnum, start, duration: 40, answered: 1 };
    const ingested = await env.ingest(record);
    expect(ingested.status).toBe(201);
    return (ingested.body.cdrs as Body[])[0]!;
  }

  it('is session while the session holds the number, after_session in its hold-back, none after', async () => {
    const { poolNumber, sessionId } = await newSession(AT);

    const live = await placeCall('conf-live', poolNumber, AT + 5 * MINUTE);
    expect(live).toMatchObject({ session_id: sessionId, attribution: 'session', bound_seconds: '300' });
    // The session ended at 08:30; its number still routes to it until 08:40.
    const held = await placeCall('conf-held', poolNumber, AT + 35 * MINUTE);
    expect(held).toMatchObject({
      session_id: sessionId,
      quarantined: '1',
      attribution: 'after_session',
      bound_seconds: '2100',
    });
    const free = await placeCall('conf-free', poolNumber, AT + 45 * MINUTE);
    expect(free).toMatchObject({ session_id: null, attribution: 'none', bound_seconds: null });

    // What the partner reads: the session's customer's records, extended.
    const listed = await env.api.read(`/statistics/cdrs?custnr=${CUSTNR}&extended=1`);
    expect(listed.status).toBe(200);
    expect(
      (listed.body.cdrs as Body[]).map((cdr) => [cdr.start, cdr.attribution, cdr.bound_seconds]),
    ).toEqual([
      ['2026-03-02 08:05:00', 'session', '300'],
      ['2026-03-02 08:35:00', 'after_session', '2100'],
    ]);
    // The basic record stays the seed's.
    const basic = await env.api.read(`/statistics/cdrs?custnr=${CUSTNR}`);
    expect((basic.body.cdrs as Body[])[0]).not.toHaveProperty('attribution');
  });

  it('is recycled for a binding taken from another live session when the pool is exhausted', async () => {
    // The first test's session holds its number until 08:40; this one takes the other.
    await newSession(AT + MINUTE);
    const exhausted = await newSession(AT + 2 * MINUTE);
    const call = await placeCall('conf-recycled', exhausted.poolNumber, AT + 3 * MINUTE);
    expect(call).toMatchObject({
      session_id: exhausted.sessionId,
      attribution: 'recycled',
      bound_seconds: '60',
    });
  });

  it("is static for a static source's number, without bound_seconds", async () => {
    const customer = await env.api.write('POST', '/customers', { name: 'Static AS', custnr: 'CONF-S' });
    const customerId = (customer.body.customers as Body[])[0]!.customer_id as string;
    const source = await env.api.write('POST', '/sources', {
      customer_id: customerId,
      name: 'Print ad',
      phonenr: '23 45 67 89',
    });
    expect(source).toMatchObject({ status: 200, body: { sources: [{ destnr: STATIC_NUMBER }] } });
    const call = await placeCall('conf-static', STATIC_NUMBER, AT + 10 * MINUTE);
    expect(call).toMatchObject({ customer_id: customerId, attribution: 'static', bound_seconds: null });
  });

  it('reads an attribution an older replacement stored without confidence as far as it can', async () => {
    const keys = partnerKeys(env.keyPrefix, PARTNER.advId);
    const older = (callId: string, sessionId: string | null): string => {
      const current = JSON.parse(
        encodeCallAttribution({
          callId, advId: PARTNER.advId, anum: '+4798000001', bnum: POOL_NUMBERS[0]!,
          at: '2026-03-02T08:20:00.000Z', action: 'dial', target: '+4722334455', sourceId: null,
          customerId: null, vmGreetingId: null, sessionId, trackingId: null, fullUrl: null,
          fullReferrer: null, custnr: null, parameters: null, quarantined: false, kind: 'session', boundAt: AT,
        }), // prettier-ignore
      ) as Body;
      delete current.attribution_kind;
      delete current.bound_at;
      return JSON.stringify(current);
    };
    await env.redis.set(keys.call('conf-old-session'), older('conf-old-session', 'an-old-session'));
    await env.redis.set(keys.call('conf-old-unbound'), older('conf-old-unbound', null));
    const record = (callId: string): Body => ({
      call_id: callId,
      anum: '+4798000001',
      bnum: POOL_NUMBERS[0],
      start: '2026-03-02 08:20:00',
      duration: 10,
      answered: 1,
    });
    const answer = await env.ingest([record('conf-old-session'), record('conf-old-unbound')]);
    expect(answer.status).toBe(200);
    expect((answer.body.cdrs as Body[]).map((cdr) => [cdr.attribution, cdr.bound_seconds])).toEqual([
      [null, null],
      ['none', null],
    ]);
  });
});
