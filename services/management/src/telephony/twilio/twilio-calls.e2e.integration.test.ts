import { createHmac } from 'node:crypto';
import { ProviderCallSimulator, testWav, type CallScript } from '@trackline/test-harness';
import { createBiddingSetup, recordOf, type BiddingSetup } from '../../test-support/bidding-setup';
import {
  GRACE_SECONDS,
  GREETING_NUMBER,
  MANAGEMENT_BASE,
  REPLACEMENT_PUBLIC,
  startTwilioEnvironment,
  type TwilioEnvironment,
} from '../../test-support/twilio-environment';

const PARTNER = {
  advId: 'twilio-acme',
  username: 'twilio-acme-api',
  password: 'correct horse battery',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722100001', '+4722100002'];
const POOL_NUMBERS = ['+4791100001', '+4791100002'];
const UNKNOWN_NUMBER = '+4722100999';
const NIGHT_PHONE = '+4723456799';
// The next Monday after now (numbers added now must be free by then): 10:00Z is 11:00 or 12:00 in
// Oslo, inside the pricing window; 20:00Z is 21:00 or 22:00, inside the night rule.
const DAY_MS = 86_400_000;
const MONDAY = (() => {
  const today = new Date();
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return midnight + ((8 - today.getUTCDay()) % 7 || 7) * DAY_MS;
})();
const DAY_AT = MONDAY + 10 * 3_600_000;
const NIGHT_AT = MONDAY + 20 * 3_600_000;
const DAY_DATE = new Date(MONDAY).toISOString().slice(0, 10);
const NEXT_DATE = new Date(MONDAY + DAY_MS).toISOString().slice(0, 10);
const VOICE_URL = `${REPLACEMENT_PUBLIC}/telephony/twilio/voice`;
const STATUS_URL = `${MANAGEMENT_BASE}/telephony/twilio/call-status`;

type Body = Record<string, unknown>;

// The whole provider protocol across both started services: a simulator sends what Twilio
// documents, signed as Twilio signs, and follows the TwiML it gets back (docs/telephony.md).
describe('provider calls through Trackline (Twilio webhooks, both services)', () => {
  jest.setTimeout(60_000);
  let env: TwilioEnvironment;
  let bidding: BiddingSetup;
  let answeredNumber: string;
  let voicemailSourceId: string;
  let voicemailNumber: string;
  let greetingId: string;
  const greetingAudio = testWav(1.5, 3);
  let callCounter = 0;

  const callSid = (): string => `CA${String(++callCounter).padStart(32, '0')}`;

  function script(to: string, overrides: Partial<CallScript> = {}): CallScript {
    return {
      callSid: callSid(),
      from: '+4798765432',
      to,
      voiceUrl: VOICE_URL,
      statusCallbackUrl: STATUS_URL,
      ...overrides,
    };
  }

  async function storedCdr(callId: string): Promise<Body | null> {
    const rows = (await env.stores.dataSource.query(
      `SELECT id::text AS cdr_id, customer_id::text AS customer_id, source_id::text AS source_id, answered,
              voicemail, duration, commission::text AS commission, session_id, custnr,
              octet_length(recording) AS recording_bytes, start, anum, bnum
         FROM cdrs WHERE call_id = $1`,
      [callId],
    )) as Body[];
    if (rows.length > 1) throw new Error(`${rows.length} records for ${callId}`);
    return rows[0] ?? null;
  }

  async function outbox(cdrId: string): Promise<Body[]> {
    return (await env.stores.dataSource.query(
      `SELECT channel, kind, recipient, attachment_cdr_id::text AS attachment FROM notification_outbox
        WHERE cdr_id = $1 ORDER BY id`,
      [cdrId],
    )) as Body[];
  }

  beforeAll(async () => {
    env = await startTwilioEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    env.replacementClock.now = DAY_AT;
    bidding = await createBiddingSetup(env.api, 'json', {
      custnr: 'K-100',
      phonenr: '23 45 67 01',
      costPerLead: '40.00',
      condition: {
        min_duration: '10',
        from_time: '08:00',
        to_time: '18:00',
        weekdays: 'mon,tue,wed,thu,fri',
      },
    });
    answeredNumber = bidding.source.destnr as string;

    const greeting = await env.api.write('POST', `/customers/${bidding.customerId}/voicemail_greetings`, {
      name: 'Office greeting',
    });
    expect(greeting.status).toBe(200);
    const greetingRecord = recordOf(greeting, 'voicemail_greetings', 'voicemail_greeting', 'json');
    greetingId = greetingRecord.vm_greeting_id as string;
    expect(greetingRecord.record_number).toBe(GREETING_NUMBER);

    const source = await env.api.write('POST', '/sources', {
      customer_id: bidding.customerId,
      name: 'Voicemail desk',
      phonenr: '23 45 67 02',
      email: 'desk@example.no',
      notify_on_new_voicemail: '1',
      vm_divert_busy: '1',
      vm_divert_noanswer: '1',
      alt_numbers: `[{"phonenr":"${NIGHT_PHONE}","weekdays":"mon,tue,wed,thu,fri,sat,sun","from_time":"18:00","to_time":"24:00"}]`,
    });
    expect(source.status).toBe(200);
    const sourceRecord = recordOf(source, 'sources', 'source', 'json');
    voicemailSourceId = sourceRecord.source_id as string;
    voicemailNumber = sourceRecord.destnr as string;
  });

  afterAll(async () => {
    await env?.close();
  });

  it('records a greeting by dial-in: PIN by DTMF after a wrong try, then the recording on the greeting', async () => {
    const read = await env.api.read(`/customers/${bidding.customerId}/voicemail_greetings/${greetingId}`);
    const pin = recordOf(read, 'voicemail_greetings', 'voicemail_greeting', 'json').record_pin as string;
    const call = await env.simulator.play(
      script(GREETING_NUMBER, {
        voiceUrl: `${MANAGEMENT_BASE}/telephony/twilio/greeting-call`,
        digits: [pin === '000000' ? '111111' : '000000', pin],
        message: { seconds: 2, audio: greetingAudio },
      }),
    );
    expect(call.documents.map((document) => document.map((verb) => verb.name))).toEqual([
      ['Gather', 'Say', 'Hangup'],
      ['Gather', 'Say', 'Hangup'],
      ['Say', 'Record'],
      ['Say', 'Hangup'],
    ]);
    expect(call.exchanges.every((exchange) => exchange.response.status < 300)).toBe(true);
    const after = await env.api.read(`/customers/${bidding.customerId}/voicemail_greetings/${greetingId}`);
    const recorded = recordOf(after, 'voicemail_greetings', 'voicemail_greeting', 'json');
    expect(recorded.datalength).toBe(String(greetingAudio.length));
    expect(Buffer.from(recorded.sounddata as string, 'base64').equals(greetingAudio)).toBe(true);
    // Downloaded once, with the account's Basic credentials.
    expect(env.recordings.downloads.filter((download) => download.authorized)).toHaveLength(1);

    const set = await env.api.write('PUT', `/sources/${voicemailSourceId}`, { vm_greeting_id: greetingId });
    expect(set.status).toBe(200);
  });

  it('hangs up after three wrong PINs', async () => {
    const call = await env.simulator.play(
      script(GREETING_NUMBER, {
        voiceUrl: `${MANAGEMENT_BASE}/telephony/twilio/greeting-call`,
        digits: ['999991', '999992', '999993'],
      }),
    );
    expect(call.documents.at(-1)!.map((verb) => verb.name)).toEqual(['Say', 'Hangup']);
    expect(call.documents).toHaveLength(4);
    // The dial-in answers only its own number.
    const elsewhere = await env.simulator.post(`${MANAGEMENT_BASE}/telephony/twilio/greeting-call`, [
      ['CallSid', callSid()],
      ['From', '+4798765432'],
      ['To', answeredNumber],
    ]);
    expect(elsewhere.response.text).toContain('<Response><Reject/></Response>');
  });

  it('an answered call becomes a record with its talk time and earns the commission', async () => {
    const call = await env.simulator.play(
      script(answeredNumber, { dialed: { outcome: 'answered', talkSeconds: 45 } }),
    );
    const dial = call.documents[0]![0]!;
    expect(dial).toMatchObject({ name: 'Dial', attributes: { timeout: '20', answerOnBridge: 'true' } });
    expect(dial.children[0]).toMatchObject({ name: 'Number', text: '+4723456701' });
    expect(call.exchanges.map((exchange) => exchange.response.status)).toEqual([200, 200, 200]);
    const cdr = await storedCdr(call.exchanges[0]!.fields.find(([name]) => name === 'CallSid')![1]);
    expect(cdr).toMatchObject({
      answered: true,
      voicemail: false,
      duration: 45,
      commission: '40.00',
      source_id: bidding.sourceId,
      customer_id: bidding.customerId,
      recording_bytes: null,
      anum: '+4798765432',
      bnum: answeredNumber,
    });
    expect((cdr!.start as Date).getTime()).toBe(DAY_AT);

    // The partner sees it in the statistics with the commission.
    const listed = await env.api.read(
      `/statistics/cdrs?customer_id=${bidding.customerId}&from_date=${DAY_DATE}&to_date=${NEXT_DATE}&extended=1`,
    );
    expect((listed.body.cdrs as Body[]).map((record) => [record.cdr_id, record.commission])).toContainEqual([
      cdr!.cdr_id,
      '40.00',
    ]);
  });

  it('busy → voicemail: the greeting plays, the recording is stored and a voicemail e-mail is queued with it', async () => {
    const message = testWav(3, 5);
    const call = await env.simulator.play(
      script(voicemailNumber, { dialed: { outcome: 'busy' }, message: { seconds: 3, audio: message } }),
    );
    expect(call.documents.map((document) => document.map((verb) => verb.name))).toEqual([
      ['Dial'],
      ['Play', 'Record'],
      ['Hangup'],
    ]);
    expect(call.played).toHaveLength(1);
    expect(call.played[0]!.status).toBe(200);
    expect(call.played[0]!.contentType).toBe('audio/wav');
    expect(call.played[0]!.body.equals(greetingAudio)).toBe(true);

    const cdr = await storedCdr(call.exchanges[0]!.fields.find(([name]) => name === 'CallSid')![1]);
    expect(cdr).toMatchObject({
      answered: false,
      voicemail: true,
      recording_bytes: message.length,
      source_id: voicemailSourceId,
      commission: null,
    });
    expect(await outbox(cdr!.cdr_id as string)).toEqual([
      { channel: 'email', kind: 'new_voicemail', recipient: 'desk@example.no', attachment: cdr!.cdr_id },
    ]);
  });

  it('no-answer → voicemail with the callbacks reordered and repeated: one record, one notification', async () => {
    const message = testWav(2, 7);
    const sid = callSid();
    const call = await env.simulator.play(
      script(voicemailNumber, {
        callSid: sid,
        dialed: { outcome: 'no-answer' },
        message: { seconds: 2, audio: message },
        callbackOrder: 'recording-first',
        repeatCallbacks: true,
      }),
    );
    const callbacks = call.exchanges.slice(-4);
    expect(callbacks.map((exchange) => exchange.url.split('?')[0])).toEqual([
      `${MANAGEMENT_BASE}/telephony/twilio/recording`,
      STATUS_URL,
      `${MANAGEMENT_BASE}/telephony/twilio/recording`,
      STATUS_URL,
    ]);
    expect(callbacks.map((exchange) => exchange.response.status)).toEqual([200, 200, 200, 200]);
    const cdr = await storedCdr(sid);
    expect(cdr).toMatchObject({ answered: false, voicemail: true, recording_bytes: message.length });
    // CallDuration of the whole call (ring timeout, greeting, message), not a talk time.
    expect(cdr!.duration).toBe(call.callDurationSeconds);
    expect(await outbox(cdr!.cdr_id as string)).toHaveLength(1);
  });

  it('screens calls once the operator turns it on: a machine that picks up is not a lead', async () => {
    await env.operator(
      'partner:update',
      '--name',
      PARTNER.advId,
      '--ring-timeout',
      '30',
      '--screen-calls',
      '1',
    );
    try {
      const accepted = await env.simulator.play(
        script(answeredNumber, { dialed: { outcome: 'answered', talkSeconds: 50 }, screenDigits: '1' }),
      );
      const dial = accepted.documents[0]![0]!;
      expect(dial.attributes.timeout).toBe('30');
      expect(dial.children[0]!.attributes.url).toBe(
        `${REPLACEMENT_PUBLIC}/telephony/twilio/screen?adv=${PARTNER.advId}`,
      );
      expect(await storedCdr(accepted.exchanges[0]!.fields[2]![1])).toMatchObject({
        answered: true,
        duration: 50,
        commission: '40.00',
      });

      // Nobody presses 1: the whisper hangs up, the provider still reports the leg completed.
      const machine = await env.simulator.play(
        script(answeredNumber, { dialed: { outcome: 'answered', talkSeconds: 50 } }),
      );
      expect(await storedCdr(machine.exchanges[0]!.fields[2]![1])).toMatchObject({
        answered: false,
        commission: null,
      });
    } finally {
      await env.operator(
        'partner:update',
        '--name',
        PARTNER.advId,
        '--ring-timeout',
        '',
        '--screen-calls',
        '0',
      );
    }
    const plain = await env.simulator.play(
      script(answeredNumber, { dialed: { outcome: 'answered', talkSeconds: 5 } }),
    );
    expect(plain.documents[0]![0]!.attributes.timeout).toBe('20');
    expect(plain.documents[0]![0]!.children[0]!.attributes).toEqual({});
  });

  it('rings the alt number at night', async () => {
    env.replacementClock.now = NIGHT_AT;
    try {
      const call = await env.simulator.play(
        script(voicemailNumber, { dialed: { outcome: 'answered', talkSeconds: 12 } }),
      );
      expect(call.documents[0]![0]!.children[0]).toMatchObject({ name: 'Number', text: NIGHT_PHONE });
      const cdr = await storedCdr(call.exchanges[0]!.fields.find(([name]) => name === 'CallSid')![1]);
      expect(cdr).toMatchObject({ answered: true, duration: 12, source_id: voicemailSourceId });
    } finally {
      env.replacementClock.now = DAY_AT;
    }
  });

  it('rejects a call to an unknown number and stores no record for it', async () => {
    const sid = callSid();
    const call = await env.simulator.play(script(UNKNOWN_NUMBER, { callSid: sid }));
    expect(call.documents).toEqual([[{ name: 'Reject', attributes: {}, text: '', children: [] }]]);
    expect(call.exchanges.at(-1)!.response.status).toBe(200);
    expect(await storedCdr(sid)).toBeNull();
  });

  it('attributes a pool number’s call to the session and customer that showed it', async () => {
    const request = JSON.stringify({
      advId: PARTNER.advId,
      fullUrl: 'https://www.example.no/ad/77',
      trackingId: 'visitor-9',
      numbers: '23 45 67 01',
      type: 'web',
      fullReferrer: '',
      parameters: { custnr: 'K-100', custname: 'Kari Bil AS', custemail: 'kari@example.no' },
      userAgent: 'Mozilla/5.0',
      requestIpAddress: '203.0.113.9',
      sessionId: '',
    });
    const sign = createHmac('sha1', PARTNER.signingSecret).update(request).digest('hex');
    const replacementBase = env.account.targetFor(REPLACEMENT_PUBLIC);
    const shown = (await (
      await fetch(`${replacementBase}/dynamic-numbers?sign=${sign}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-HTTP-STATUSES': '1' },
        body: request,
      })
    ).json()) as Body;
    expect(shown.success).toBe(true);
    const poolNumber = ((shown.numbers as Body[])[0]!.replace_with as Body).e164 as string;
    expect(POOL_NUMBERS).toContain(poolNumber);

    const sid = callSid();
    await env.simulator.play(
      script(poolNumber, { callSid: sid, dialed: { outcome: 'answered', talkSeconds: 30 } }),
    );
    const cdr = await storedCdr(sid);
    expect(cdr).toMatchObject({
      answered: true,
      duration: 30,
      session_id: shown.sessionId,
      customer_id: bidding.customerId,
      custnr: 'K-100',
      source_id: bidding.sourceId,
      commission: '40.00',
    });
  });

  it('completes a call whose status callback never comes after the grace period, from what arrived', async () => {
    const message = testWav(1, 9);
    const sid = callSid();
    await env.simulator.play(
      script(voicemailNumber, {
        callSid: sid,
        dialed: { outcome: 'no-answer' },
        message: { seconds: 1, audio: message },
        dropStatusCallback: true,
      }),
    );
    expect(await storedCdr(sid)).toBeNull();
    // Before the grace period nothing happens; after it, the record is stored from what arrived.
    const now = env.replacementClock.now;
    expect(await env.management.app.twilioCalls.sweep(new Date(now + 1000))).toBe(0);
    expect(await env.management.app.twilioCalls.sweep(new Date(now + (GRACE_SECONDS + 5) * 1000))).toBe(1);
    expect(await storedCdr(sid)).toMatchObject({
      answered: false,
      voicemail: true,
      recording_bytes: message.length,
    });
  });

  it('waits for a voicemail’s recording, and completes without it once the grace period passes', async () => {
    const sid = callSid();
    // The caller hangs up at the beep: no recording ever arrives.
    await env.simulator.play(script(voicemailNumber, { callSid: sid, dialed: { outcome: 'busy' } }));
    expect(await storedCdr(sid)).toBeNull();
    await env.management.app.twilioCalls.sweep(
      new Date(env.replacementClock.now + (GRACE_SECONDS + 5) * 1000),
    );
    const cdr = await storedCdr(sid);
    expect(cdr).toMatchObject({ answered: false, voicemail: false, recording_bytes: null });
  });

  describe('the same record whatever order the dial result, status and recording callbacks arrive in', () => {
    type Exchange = { url: string; fields: [string, string][] };
    const withSid = (exchange: Exchange, sid: string): Exchange => ({
      url: exchange.url,
      fields: exchange.fields.map(([name, value]) => [name, name === 'CallSid' ? sid : value]),
    });
    const orders = <T>(items: T[]): T[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    const kept = (cdr: Body | null): Body => {
      const { answered, voicemail, duration, commission, source_id, customer_id, recording_bytes } =
        cdr ?? {};
      return { answered, voicemail, duration, commission, source_id, customer_id, recording_bytes };
    };

    /**
     * Plays a reference call in the provider's own order, then replays its requests for a new
     * CallSid per order: the voice webhook first, then the callbacks (each group sent whole) in
     * that order. Calls left waiting (a dial result that came last) complete by the sweep.
     */
    async function replayInEveryOrder(number: string, overrides: Partial<CallScript>, groups: number[][]) {
      const sid = callSid();
      const reference = await env.simulator.play(script(number, { callSid: sid, ...overrides }));
      const expected = kept(await storedCdr(sid));
      const [voice, ...rest] = reference.exchanges as Exchange[];
      const results: Array<{ order: string; record: Body }> = [];
      for (const order of orders(groups.map((_, i) => i))) {
        const replayed = callSid();
        expect((await env.simulator.post(voice!.url, withSid(voice!, replayed).fields)).response.status).toBe(
          200,
        );
        for (const group of order)
          for (const index of groups[group]!) {
            const exchange = withSid(rest[index]!, replayed);
            expect((await env.simulator.post(exchange.url, exchange.fields)).response.status).toBe(200);
          }
        await env.management.app.twilioCalls.sweep(
          new Date(env.replacementClock.now + (GRACE_SECONDS + 5) * 1000),
        );
        results.push({ order: order.join(','), record: kept(await storedCdr(replayed)) });
      }
      return { expected, results };
    }

    it('an answered call: dial result and status callback, both orders', async () => {
      // Requests after the voice webhook: 0 dial result, 1 status callback.
      const { expected, results } = await replayInEveryOrder(
        answeredNumber,
        { dialed: { outcome: 'answered', talkSeconds: 42 } },
        [[0], [1]],
      );
      expect(expected).toMatchObject({ answered: true, duration: 42, commission: '40.00' });
      for (const { order, record } of results) expect({ order, record }).toEqual({ order, record: expected });
    });

    it('a voicemail: dial result (with the voicemail it leads to), status and recording, all six orders', async () => {
      const message = testWav(2, 11);
      // After the voice webhook: 0 dial result, 1 the recording's action, 2 status, 3 recording.
      const { expected, results } = await replayInEveryOrder(
        voicemailNumber,
        { dialed: { outcome: 'no-answer' }, message: { seconds: 2, audio: message } },
        [[0, 1], [2], [3]],
      );
      expect(expected).toMatchObject({ answered: false, voicemail: true, recording_bytes: message.length });
      expect(results).toHaveLength(6);
      for (const { order, record } of results) expect({ order, record }).toEqual({ order, record: expected });
    });
  });

  it('a callback that comes a day after its call was completed stores nothing twice', async () => {
    const sid = callSid();
    const first = await env.simulator.play(
      script(answeredNumber, { callSid: sid, dialed: { outcome: 'answered', talkSeconds: 21 } }),
    );
    const stored = await storedCdr(sid);
    expect(stored).toMatchObject({ answered: true, duration: 21 });
    // Two days on, the sweep drops rows of completed calls; then the provider repeats the callback.
    env.replacementClock.now += 2 * DAY_MS;
    try {
      await env.management.app.twilioCalls.sweep(new Date(env.replacementClock.now));
      expect(
        await env.stores.dataSource.query(`SELECT 1 FROM twilio_calls WHERE call_sid = $1`, [sid]),
      ).toEqual([]);
      const statusCallback = first.exchanges.at(-1)!;
      const late = await env.simulator.post(statusCallback.url, statusCallback.fields);
      expect(late.response.status).toBe(200);
      expect(await storedCdr(sid)).toEqual(stored);
    } finally {
      env.replacementClock.now -= 2 * DAY_MS;
    }
  });

  it('refuses forged callbacks (403) and recording URLs outside RECORDING_HOSTS (400)', async () => {
    const sid = callSid();
    const status: [string, string][] = [
      ['CallSid', sid],
      ['CallStatus', 'completed'],
      ['To', answeredNumber],
      ['From', '+4798765432'],
      ['CallDuration', '10'],
    ];
    const forger = new ProviderCallSimulator(
      { ...env.account, authToken: 'a-guessed-token' },
      env.recordings,
    );
    const forged = await forger.post(STATUS_URL, status);
    expect(forged.response.status).toBe(403);
    expect(JSON.parse(forged.response.text)).toEqual({
      error: { status: 403, message: 'Invalid signature' },
    });
    // Signed for the address it reached instead of MANAGEMENT_PUBLIC_URL: also refused.
    const hostBased = new ProviderCallSimulator({ ...env.account, targetFor: (url) => url }, env.recordings);
    const local = await hostBased.post(`${env.account.targetFor(STATUS_URL)}`, status);
    expect(local.response.status).toBe(403);
    expect(
      await env.stores.dataSource.query(`SELECT 1 FROM twilio_calls WHERE call_sid = $1`, [sid]),
    ).toEqual([]);

    const wrongKey = await env.simulator.post(
      `${MANAGEMENT_BASE}/telephony/twilio/recording?to=%2B4722100001`,
      [
        ['CallSid', sid],
        ['RecordingSid', 'RE1'],
        ['RecordingUrl', 'http://169.254.169.254/latest/meta-data'],
        ['RecordingStatus', 'completed'],
        ['RecordingDuration', '3'],
      ],
    );
    expect(wrongKey.response.status).toBe(400);
    expect(JSON.parse(wrongKey.response.text)).toEqual({
      error: { status: 400, message: expect.stringMatching(/^RecordingUrl.*RECORDING_HOSTS/) },
    });
  });
});
