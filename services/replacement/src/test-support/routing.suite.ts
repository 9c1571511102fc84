import {
  CALL_ATTRIBUTION_TTL_SECONDS,
  decodeCallAttribution,
  partnerKeys,
  writePartnerProjection,
  type PartnerConfig,
  type SourceRoute,
} from '@trackline/contracts';
import { partnerConfig, poolNumbers, projection, sourceRoute, uniqueAdvId } from './fixtures';
import { sendReplacementRequest, webRequest } from './partner-client';
import type { RedisTarget } from './redis-target';
import { startTestServer, type TestServer } from './test-server';

const MINUTE = 60_000;

/**
 * Call routing (docs/switch.md) through the HTTP service against any Redis; run on a single Redis by
 * routing.integration.test.ts and on Redis Cluster by the cluster test.
 */
export function routingSuite(openTarget: () => Promise<RedisTarget>): void {
  let target: RedisTarget;
  let app: TestServer;

  beforeAll(async () => {
    target = await openTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  async function route(
    body: Record<string, unknown>,
    token = 'switch-token',
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${app.baseUrl}/telephony/route`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function setUp(
    configOverrides: Partial<PartnerConfig>,
    pool: string[],
    sources: SourceRoute[],
  ): Promise<PartnerConfig> {
    const config = partnerConfig(uniqueAdvId('route'), configOverrides);
    await writePartnerProjection(target.redis, target.keyPrefix, projection(config, pool, sources));
    return config;
  }

  async function attribution(advId: string, callId: string) {
    const key = partnerKeys(target.keyPrefix, advId).call(callId);
    const [raw, ttl] = await Promise.all([target.redis.get(key), target.redis.ttl(key)]);
    return { stored: decodeCallAttribution(raw!), ttl };
  }

  let callCounter = 0;
  const nextCallId = (): string => `call-${process.pid}-${++callCounter}`;

  it('routes a static number to its source, by alt-number rules at the call time in the partner zone', async () => {
    const destnr = `+47900${String(Date.now() % 100000).padStart(5, '0')}`;
    const source = sourceRoute({
      destnr,
      phonenr: '+4722334455',
      vmGreetingId: '55',
      altNumbers: [
        // Weekdays 08:00–16:00 Oslo time to the sales desk; weekends to voicemail.
        {
          phonenr: '+4723456789',
          weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
          fromMinute: 480,
          toMinute: 960,
          altKey: 'a1',
        },
        { phonenr: 'voicemail', weekdays: ['sat', 'sun'], fromMinute: 0, toMinute: 1440, altKey: 'a2' },
      ],
    });
    const partner = await setUp({}, poolNumbers(1), [source]);
    const expectBase = { partner: partner.advId, customer_id: '7', source_id: '101' };
    // The source diverts neither on busy nor on no answer, so its greeting stays out of a dial.
    const noDivert = { on_busy: null, on_no_answer: null };

    // Monday 07:30 UTC = 08:30 Oslo (winter time).
    const office = await route({
      call_id: nextCallId(),
      anum: '+4799999999',
      bnum: destnr,
      at: '2026-01-05 07:30:00',
    });
    expect(office).toEqual({
      status: 200,
      body: { action: 'dial', target: '+4723456789', ...expectBase, ...noDivert },
    });
    // Monday 06:30 UTC = 07:30 Oslo: no rule, the source's own number.
    const early = await route({
      call_id: nextCallId(),
      anum: '+4799999999',
      bnum: destnr,
      at: '2026-01-05T07:30:00+01:00',
    });
    expect(early.body).toEqual({ action: 'dial', target: '+4722334455', ...expectBase, ...noDivert });
    // Summer time: Monday 2026-06-01 06:30 UTC = 08:30 Oslo (UTC+2).
    const summer = await route({
      call_id: nextCallId(),
      anum: '+4799999999',
      bnum: destnr,
      at: '2026-06-01 06:30:00',
    });
    expect(summer.body.target).toBe('+4723456789');
    // Saturday: voicemail with the source's greeting.
    const callId = nextCallId();
    const weekend = await route({
      call_id: callId,
      anum: '+4799999999',
      bnum: destnr,
      at: '2026-01-10 12:00:00',
    });
    expect(weekend.body).toEqual({ action: 'voicemail', vm_greeting_id: '55', ...expectBase });

    const { stored, ttl } = await attribution(partner.advId, callId);
    expect(stored).toMatchObject({
      callId,
      advId: partner.advId,
      bnum: destnr,
      action: 'voicemail',
      sourceId: '101',
      customerId: '7',
      sessionId: null,
      quarantined: false,
      kind: 'static',
      boundAt: null,
    });
    expect(stored.at).toBe('2026-01-10T12:00:00.000Z');
    expect(ttl).toBeGreaterThan(CALL_ATTRIBUTION_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(CALL_ATTRIBUTION_TTL_SECONDS);
  });

  it('sends everything to voicemail when vm_divert_all is set, and marks a closed source quarantined', async () => {
    const divert = sourceRoute({ sourceId: '201', destnr: '+4790100001', vmDivertAll: true, altNumbers: [] });
    const closed = sourceRoute({
      sourceId: '202',
      destnr: '+4790100002',
      phonenr: '+4723000000',
      closed: true,
    });
    const partner = await setUp({}, poolNumbers(1, 901), [divert, closed]);
    const divertCall = await route({ call_id: nextCallId(), anum: '', bnum: '+4790100001' });
    expect(divertCall.body).toEqual({
      action: 'voicemail',
      partner: partner.advId,
      customer_id: '7',
      source_id: '201',
    });
    const callId = nextCallId();
    const closedCall = await route({ call_id: callId, anum: '+4799999999', bnum: '4790100002' });
    expect(closedCall.body).toMatchObject({ action: 'dial', target: '+4723000000', source_id: '202' });
    expect((await attribution(partner.advId, callId)).stored.quarantined).toBe(true);
  });

  it('routes a bound pool number to its number on the page, with the source rules and DNI attribution', async () => {
    const pool = poolNumbers(2, 501);
    const source = sourceRoute({
      sourceId: '301', destnr: '+4790200001', phonenr: '+4722334455',
      altNumbers: [{ phonenr: '+4741000000', weekdays: ['mon'], fromMinute: 550, toMinute: 560, altKey: 'x' }],
    }); // prettier-ignore
    const partner = await setUp(
      { fallbackNumber: '+4721000000', sessionTtlSeconds: 1800, holdBackSeconds: 600 },
      pool,
      [source],
    );
    app.clock.now = Date.UTC(2026, 0, 5, 8, 0, 0); // Monday 09:00 Oslo
    const dni = await sendReplacementRequest(
      app.baseUrl,
      webRequest(partner.advId, '22 33 44 55', { trackingId: 'visitor-77' }),
      { secret: partner.signingSecret },
    );
    const trackingNumber = (dni.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with
      .e164;
    const sessionId = dni.body.sessionId as string;

    const callId = nextCallId();
    const live = await route({
      call_id: callId,
      anum: '+4799999999',
      bnum: trackingNumber,
      at: '2026-01-05 08:05:00',
    });
    expect(live.body).toEqual({
      action: 'dial',
      target: '+4722334455',
      partner: partner.advId,
      customer_id: '7',
      source_id: '301',
      session_id: sessionId,
      on_busy: null,
      on_no_answer: null,
    });
    const { stored } = await attribution(partner.advId, callId);
    expect(stored).toMatchObject({
      sessionId, trackingId: 'visitor-77', fullUrl: 'https://www.example.no/ad/1234', fullReferrer: 'https://www.google.com/',
      custnr: 'C-1', parameters: { custnr: 'C-1', custname: 'Kari Nordmann', custemail: 'kari@example.no', adId: '1234' },
      quarantined: false, sourceId: '301', kind: 'session', boundAt: Date.UTC(2026, 0, 5, 8, 0, 0),
    }); // prettier-ignore

    // Monday 09:15 Oslo: the source's alt rule (09:10–09:20) is in force for the bound number too.
    const alt = await route({
      call_id: nextCallId(),
      anum: '+4799999999',
      bnum: trackingNumber,
      at: '2026-01-05 08:15:00',
    });
    expect(alt.body).toMatchObject({ action: 'dial', target: '+4741000000', session_id: sessionId });

    // Session ended at 08:30 UTC; hold-back until 08:40: calls still reach the binding, quarantined.
    const heldId = nextCallId();
    const held = await route({
      call_id: heldId,
      anum: '+4799999999',
      bnum: trackingNumber,
      at: '2026-01-05 08:35:00',
    });
    expect(held.body).toMatchObject({ action: 'dial', target: '+4722334455', session_id: sessionId });
    expect((await attribution(partner.advId, heldId)).stored).toMatchObject({
      quarantined: true,
      kind: 'after_session',
      boundAt: Date.UTC(2026, 0, 5, 8, 0, 0),
    });

    // After the hold-back the number is free: the partner's fallback number, no attribution to the session.
    const freeId = nextCallId();
    const free = await route({
      call_id: freeId,
      anum: '+4799999999',
      bnum: trackingNumber,
      at: '2026-01-05 08:40:00',
    });
    expect(free.body).toEqual({
      action: 'dial',
      target: '+4721000000',
      partner: partner.advId,
      on_busy: null,
      on_no_answer: null,
    });
    expect((await attribution(partner.advId, freeId)).stored).toMatchObject({
      sessionId: null,
      sourceId: null,
      action: 'dial',
      kind: 'none',
      boundAt: null,
    });
    // A never-bound pool number also goes to the fallback.
    const other = pool.find((n) => n !== trackingNumber)!;
    expect((await route({ call_id: nextCallId(), anum: '1', bnum: other })).body).toEqual({
      action: 'dial',
      target: '+4721000000',
      partner: partner.advId,
      on_busy: null,
      on_no_answer: null,
    });
  });

  it('dials the number on the page when it is no source, rejects unbound numbers without fallback and unknown numbers', async () => {
    const pool = poolNumbers(1, 701);
    const partner = await setUp({ fallbackNumber: null }, pool, []);
    expect((await route({ call_id: nextCallId(), anum: '1', bnum: pool[0]! })).body).toEqual({
      action: 'reject',
      partner: partner.advId,
    });

    const dni = await sendReplacementRequest(app.baseUrl, webRequest(partner.advId, '23 45 67 89'), {
      secret: partner.signingSecret,
    });
    const sessionId = dni.body.sessionId as string;
    const bound = await route({ call_id: nextCallId(), anum: '1', bnum: pool[0]! });
    expect(bound.body).toEqual({
      action: 'dial',
      target: '+4723456789',
      partner: partner.advId,
      session_id: sessionId,
      on_busy: null,
      on_no_answer: null,
    });

    expect((await route({ call_id: nextCallId(), anum: '1', bnum: '+4799000111' })).body).toEqual({
      action: 'reject',
      partner: null,
    });
    app.clock.now += 5 * MINUTE;
  });

  // One reading of numbers at every edge (docs/switch.md, "Numbers"): the record management stores
  // joins the attribution by the same forms.
  it('reads bnum in any international spelling and the caller in the partner country, storing E.164', async () => {
    const destnr = '+4790800001';
    const partner = await setUp({}, [], [sourceRoute({ destnr, phonenr: '+4722800801' })]);
    const spellings: Array<[string, string, string]> = [
      ['004790800001', '91234567', '+4791234567'],
      ['4790800001', '004791234567', '+4791234567'],
      ['+47 908 00001', '+47 912 34 567', '+4791234567'],
      ['+4790800001 ', '4791234567', '+4791234567'],
      [destnr, '46812345678', '+46812345678'],
      [destnr, 'restricted', 'anonymous'],
      [destnr, '1881', '1881'],
    ];
    for (const [bnum, anum, stored] of spellings) {
      const callId = nextCallId();
      const routed = await route({ call_id: callId, anum, bnum });
      expect(routed.body).toMatchObject({ action: 'dial', partner: partner.advId });
      expect((await attribution(partner.advId, callId)).stored).toMatchObject({ bnum: destnr, anum: stored });
    }
    for (const bnum of ['90800001', '+4790800001x', '+47908000011'])
      expect(await route({ call_id: nextCallId(), anum: '1', bnum })).toEqual({
        status: 400,
        body: { error: { status: 400, message: 'bnum: must be a phone number' } },
      });
  });

  // docs/numbers-and-sources.md, "Free static numbers": ours, so never rejected as unknown.
  it("routes a static number no source holds to the partner's fallback number, else rejects it as the partner's", async () => {
    const free = '+4721000004';
    const config = partnerConfig(uniqueAdvId('free'), { fallbackNumber: '+4721000000' });
    await writePartnerProjection(target.redis, target.keyPrefix, {
      ...projection(config, [], []),
      freeStaticNumbers: [free],
    });
    const callId = nextCallId();
    expect((await route({ call_id: callId, anum: '91234567', bnum: '0047 21 00 00 04' })).body).toEqual({
      action: 'dial',
      target: '+4721000000',
      partner: config.advId,
      on_busy: null,
      on_no_answer: null,
    });
    expect((await attribution(config.advId, callId)).stored).toMatchObject({ bnum: free, sourceId: null });

    const without = partnerConfig(uniqueAdvId('free'), { fallbackNumber: null });
    await writePartnerProjection(target.redis, target.keyPrefix, {
      ...projection(without, [], []),
      freeStaticNumbers: ['+4721000005'],
    });
    expect((await route({ call_id: nextCallId(), anum: '1', bnum: '+4721000005' })).body).toEqual({
      action: 'reject',
      partner: without.advId,
    });
  });

  it('tells the switch to divert a dialled call to voicemail on busy / no answer, with the greeting', async () => {
    const both = sourceRoute({
      sourceId: '401', destnr: '+4790400001', phonenr: '+4722334455', vmGreetingId: '66',
      vmDivertBusy: true, vmDivertNoanswer: true,
      altNumbers: [{ phonenr: '+4723456789', weekdays: ['mon'], fromMinute: 480, toMinute: 960, altKey: 'day' }],
    }); // prettier-ignore
    const noAnswerOnly = sourceRoute({
      sourceId: '402',
      destnr: '+4790400002',
      phonenr: '+4722000402',
      vmDivertNoanswer: true,
    });
    const busyOnly = sourceRoute({
      sourceId: '403', destnr: '+4790400003', phonenr: '+4722000403', vmGreetingId: '67', vmDivertBusy: true,
    }); // prettier-ignore
    const partner = await setUp({}, poolNumbers(1, 801), [both, noAnswerOnly, busyOnly]);
    const base = { partner: partner.advId, customer_id: '7' };

    // Monday 09:00 Oslo: the alt rule's number rings, and the source's voicemail still takes over.
    const callId = nextCallId();
    const dayCall = await route({
      call_id: callId,
      anum: '+4799999999',
      bnum: '+4790400001',
      at: '2026-01-05 08:00:00',
    });
    expect(dayCall).toEqual({
      status: 200,
      body: {
        action: 'dial', target: '+4723456789', ...base, source_id: '401',
        on_busy: 'voicemail', on_no_answer: 'voicemail', vm_greeting_id: '66',
      },
    }); // prettier-ignore
    // The greeting the switch may play is kept with the call for its record.
    expect((await attribution(partner.advId, callId)).stored).toMatchObject({
      action: 'dial',
      target: '+4723456789',
      vmGreetingId: '66',
    });
    const evening = await route({
      call_id: nextCallId(),
      anum: '1',
      bnum: '+4790400001',
      at: '2026-01-05 20:00:00',
    });
    expect(evening.body).toMatchObject({
      target: '+4722334455',
      on_busy: 'voicemail',
      on_no_answer: 'voicemail',
    });

    // No greeting: no vm_greeting_id; the switch plays its default.
    expect((await route({ call_id: nextCallId(), anum: '1', bnum: '+4790400002' })).body).toEqual({
      action: 'dial', target: '+4722000402', ...base, source_id: '402', on_busy: null, on_no_answer: 'voicemail',
    }); // prettier-ignore
    expect((await route({ call_id: nextCallId(), anum: '1', bnum: '+4790400003' })).body).toEqual({
      action: 'dial', target: '+4722000403', ...base, source_id: '403',
      on_busy: 'voicemail', on_no_answer: null, vm_greeting_id: '67',
    }); // prettier-ignore
  });

  it("applies the source's busy / no-answer diversion to a pool number bound to its answering number", async () => {
    const pool = poolNumbers(1, 851);
    const source = sourceRoute({
      sourceId: '451', destnr: '+4790450001', phonenr: '+4722450451', vmGreetingId: '9', vmDivertBusy: true,
    }); // prettier-ignore
    const partner = await setUp({}, pool, [source]);
    const dni = await sendReplacementRequest(app.baseUrl, webRequest(partner.advId, '22 45 04 51'), {
      secret: partner.signingSecret,
    });
    const call = await route({ call_id: nextCallId(), anum: '1', bnum: pool[0]! });
    expect(call.body).toEqual({
      action: 'dial', target: '+4722450451', partner: partner.advId, customer_id: '7', source_id: '451',
      session_id: dni.body.sessionId, on_busy: 'voicemail', on_no_answer: null, vm_greeting_id: '9',
    }); // prettier-ignore
  });

  it('routes from projections written under version 1 (before a rebuild) and refuses unknown versions', async () => {
    const source = sourceRoute({
      sourceId: '501',
      destnr: '+4790500001',
      phonenr: '+4722500501',
      vmGreetingId: '5',
    });
    const partner = await setUp({}, poolNumbers(1, 951), [source]);
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    // What management of version 1 wrote: the same config hash, routes without the busy / no-answer flags.
    await target.redis.hset(keys.config, 'version', '1');
    const current = JSON.parse((await target.redis.hget(keys.staticRoutes, '+4790500001'))!) as Record<
      string,
      unknown
    >;
    const { vm_divert_busy: _busy, vm_divert_noanswer: _noanswer, ...v1 } = current;
    await target.redis.hset(keys.staticRoutes, '+4790500001', JSON.stringify({ ...v1, version: 1 }));

    // Diversion unknown: the routing version 1 gave, answered (a call is not failed over it).
    expect(await route({ call_id: nextCallId(), anum: '1', bnum: '+4790500001' })).toEqual({
      status: 200,
      body: {
        action: 'dial', target: '+4722500501', partner: partner.advId, customer_id: '7', source_id: '501',
        on_busy: null, on_no_answer: null,
      },
    }); // prettier-ignore

    // A version this code does not know (a newer management deployed first) is not guessed at.
    await target.redis.hset(keys.staticRoutes, '+4790500001', JSON.stringify({ ...current, version: 3 }));
    expect(await route({ call_id: nextCallId(), anum: '1', bnum: '+4790500001' })).toEqual({
      status: 500,
      body: { error: { status: 500, message: 'Partner configuration unreadable' } },
    });
  });

  // What the switch may send is what management can store the call's record by (docs/cdrs.md,
  // "What both services accept"): the same call_id and anum rules, refused here with 400.
  it('holds call_id and anum to the rules the call record is stored by', async () => {
    const callIdRule = 'call_id: must be 1 to 128 printable ASCII characters without spaces';
    for (const callId of ['a b', 'c'.repeat(129), 'blå-1', '', 'tab\t1']) {
      expect(await route({ call_id: callId, anum: '+4791234567', bnum: '+4790000001' })).toEqual({
        status: 400,
        body: { error: { status: 400, message: callIdRule } },
      });
    }
    for (const anum of ['9'.repeat(33), 'ukjent-nummer-ø1']) {
      expect((await route({ call_id: nextCallId(), anum, bnum: '+4790000001' })).body).toEqual({
        error: {
          status: 400,
          message:
            'anum: must be at most 32 printable ASCII characters besides spaces (a withheld caller is "anonymous", empty or a word without digits)',
        },
      });
    }
    // A withheld caller is routed and recorded as the one withheld form.
    const destnr = '+4790600001';
    const partner = await setUp({}, [], [sourceRoute({ destnr, phonenr: '+4722600601' })]);
    const withheld = nextCallId();
    expect((await route({ call_id: withheld, anum: '', bnum: destnr })).status).toBe(200);
    expect((await attribution(partner.advId, withheld)).stored.anum).toBe('anonymous');
    const longest = 'C'.repeat(128);
    expect((await route({ call_id: longest, anum: 'anonymous', bnum: destnr })).status).toBe(200);
    expect((await attribution(partner.advId, longest)).stored).toMatchObject({
      callId: longest,
      anum: 'anonymous',
    });
  });

  it('requires the bearer token and names bad fields', async () => {
    const noToken = await route({ call_id: 'x', anum: '1', bnum: '+4790000001' }, 'wrong');
    expect(noToken).toEqual({
      status: 401,
      body: { error: { status: 401, message: 'A valid bearer token is required' } },
    });
    expect((await route({ anum: '1', bnum: '+4790000001' })).body).toEqual({
      error: { status: 400, message: 'call_id: is required' },
    });
    expect((await route({ call_id: 'x', anum: '1', bnum: 'abc' })).status).toBe(400);
    expect(
      (await route({ call_id: 'x', anum: '1', bnum: '+4790000001', at: '2026-02-30 10:00:00' })).body,
    ).toEqual({
      error: { status: 400, message: 'at: must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset' },
    });
  });
}
