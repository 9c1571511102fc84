import { partnerKeys } from '@trackline/contracts';
import { STIR_VERSTAT_BASES } from '@trackline/domain';
import { testWav, type CallScript, type CallTranscript } from '@trackline/test-harness';
import { createBiddingSetup, recordOf, type BiddingSetup } from '../test-support/bidding-setup';
import {
  MANAGEMENT_BASE,
  REPLACEMENT_PUBLIC,
  startTwilioEnvironment,
  type TwilioEnvironment,
} from '../test-support/twilio-environment';

const PARTNER = {
  advId: 'spam-acme',
  username: 'spam-acme-api',
  password: 'correct horse battery',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722200001', '+4722200002', '+4722200003', '+4722200004'];
const DAY_MS = 86_400_000;
// The next Monday, 10:00Z (11:00 or 12:00 in Oslo): inside the pricing window.
const MONDAY = (() => {
  const today = new Date();
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return midnight + ((8 - today.getUTCDay()) % 7 || 7) * DAY_MS;
})();
const DAY_AT = MONDAY + 10 * 3_600_000;
const VOICE_URL = `${REPLACEMENT_PUBLIC}/telephony/twilio/voice`;
const STATUS_URL = `${MANAGEMENT_BASE}/telephony/twilio/call-status`;

type Body = Record<string, unknown>;

// Spam and robocalls across both started services (docs/spam.md): the simulator sends StirVerstat
// as Twilio does, signed with the other fields, and follows the TwiML back.
describe('spam and robocalls through the Twilio webhooks', () => {
  jest.setTimeout(120_000);
  let env: TwilioEnvironment;
  let bidding: BiddingSetup;
  let leadNumber: string;
  let missedNumber: string;
  let otherNumbers: string[];
  let callCounter = 0;
  let callerCounter = 0;

  const callSid = (): string => `CA${String(++callCounter).padStart(32, '5')}`;
  // Every test its own caller, so one test's history does not score another's calls.
  const newCaller = (): string => `+47981${String(++callerCounter).padStart(5, '0')}`;

  function script(to: string, from: string, overrides: Partial<CallScript> = {}): CallScript {
    return { callSid: callSid(), from, to, voiceUrl: VOICE_URL, statusCallbackUrl: STATUS_URL, ...overrides };
  }

  const answered = (talkSeconds: number) => ({ dialed: { outcome: 'answered' as const, talkSeconds } });

  function sidOf(call: CallTranscript): string {
    return call.exchanges[0]!.fields.find(([name]) => name === 'CallSid')![1];
  }

  async function storedCdr(callId: string): Promise<Body> {
    const rows = (await env.stores.dataSource.query(
      `SELECT id::text AS cdr_id, answered, duration, commission::text AS commission, stir_verstat, spam_score,
              spam_reasons, spam, spam_marked
         FROM cdrs WHERE call_id = $1`,
      [callId],
    )) as Body[];
    if (rows.length !== 1) throw new Error(`${rows.length} records for ${callId}`);
    return rows[0]!;
  }

  async function outbox(cdrId: string): Promise<Body[]> {
    return (await env.stores.dataSource.query(
      `SELECT channel, kind FROM notification_outbox WHERE cdr_id = $1 ORDER BY id`,
      [cdrId],
    )) as Body[];
  }

  async function policy(...options: string[]): Promise<void> {
    await env.operator('partner:update', '--name', PARTNER.advId, ...options);
  }

  beforeAll(async () => {
    env = await startTwilioEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
    env.replacementClock.now = DAY_AT;
    bidding = await createBiddingSetup(env.api, 'json', {
      custnr: 'S-100',
      phonenr: '23 45 68 01',
      costPerLead: '40.00',
      condition: {
        min_duration: '10',
        from_time: '08:00',
        to_time: '18:00',
        weekdays: 'mon,tue,wed,thu,fri',
      },
    });
    leadNumber = bidding.source.destnr as string;
    const source = async (name: string, phonenr: string, extra: Body = {}): Promise<string> => {
      const created = await env.api.write('POST', '/sources', {
        customer_id: bidding.customerId,
        name,
        phonenr,
        ...extra,
      });
      expect(created.status).toBe(200);
      return recordOf(created, 'sources', 'source', 'json').destnr as string;
    };
    missedNumber = await source('Front desk', '23 45 68 02', {
      email: 'desk@example.no',
      notify_on_missed_call: '1',
    });
    otherNumbers = [await source('Flyer', '23 45 68 03'), await source('Radio', '23 45 68 04')];
  });

  afterAll(async () => {
    await env?.close();
  });

  const VERDICTS: Array<[string, number, string, boolean]> = [
    ['TN-Validation-Passed-A', 0, '', false],
    ['TN-Validation-Passed-B', 5, 'attestation_b', false],
    ['TN-Validation-Passed-C', 20, 'attestation_c', false],
    ['TN-Validation-Failed-A', 70, 'attestation_failed', true],
    ['TN-Validation-Failed-B', 70, 'attestation_failed', true],
    ['TN-Validation-Failed-C', 70, 'attestation_failed', true],
    ['TN-Validation-Failed', 70, 'attestation_failed', true],
    ['No-TN-Validation', 10, 'no_attestation', false],
    ['TN-Validation-Passed-A-Diverted', 0, '', false],
    ['TN-Validation-Passed-C-Passthrough', 20, 'attestation_c', false],
    ['TN-Validation-Failed-Diverted', 70, 'attestation_failed', true],
    ['No-TN-Validation-Passthrough', 10, 'no_attestation', false],
  ];

  it('covers every verification Twilio names', () => {
    const bases = new Set(VERDICTS.map(([value]) => value.replace(/-(Diverted|Passthrough)$/, '')));
    expect([...bases].sort()).toEqual([...STIR_VERSTAT_BASES].sort());
  });

  it.each(VERDICTS)(
    'StirVerstat %s is kept on the record, scores %i, and only a failed verification loses the commission',
    async (stirVerstat, score, reasons, spam) => {
      const call = await env.simulator.play(
        script(leadNumber, newCaller(), { ...answered(45), stirVerstat }),
      );
      // The default policy allows: the call is dialled as ever.
      expect(call.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
      expect(await storedCdr(sidOf(call))).toMatchObject({
        answered: true,
        stir_verstat: stirVerstat,
        spam_score: score,
        spam_reasons: reasons,
        spam,
        commission: spam ? null : '40.00',
      });
    },
  );

  it('without StirVerstat (outside the US) the record has none and nothing counts against the call', async () => {
    const call = await env.simulator.play(script(leadNumber, newCaller(), answered(45)));
    expect(await storedCdr(sidOf(call))).toMatchObject({
      stir_verstat: null,
      spam_score: 0,
      spam_reasons: '',
      spam: false,
      commission: '40.00',
    });
  });

  it('shows the fields in the extended record as strings', async () => {
    const call = await env.simulator.play(
      script(leadNumber, newCaller(), { ...answered(45), stirVerstat: 'TN-Validation-Failed' }),
    );
    const cdr = await storedCdr(sidOf(call));
    const day = new Date(DAY_AT).toISOString().slice(0, 10);
    const next = new Date(DAY_AT + DAY_MS).toISOString().slice(0, 10);
    const listed = await env.api.read(
      `/statistics/cdrs?customer_id=${bidding.customerId}&from_date=${day}&to_date=${next}&extended=1`,
    );
    const record = (listed.body.cdrs as Body[]).find((entry) => entry.cdr_id === cdr.cdr_id);
    expect(record).toMatchObject({
      stir_verstat: 'TN-Validation-Failed',
      spam_score: '70',
      spam_reasons: 'attestation_failed',
      spam: '1',
      commission: null,
    });
  });

  it('a caller with many short calls is judged spam from the call after the third', async () => {
    const caller = newCaller();
    const verdicts: Body[] = [];
    for (let i = 0; i < 4; i++) {
      env.replacementClock.now = DAY_AT + i * 600_000;
      const call = await env.simulator.play(script(leadNumber, caller, answered(4)));
      verdicts.push(await storedCdr(sidOf(call)));
    }
    expect(verdicts.map((cdr) => [cdr.spam_score, cdr.spam_reasons, cdr.spam])).toEqual([
      [15, 'short_call', false],
      [15, 'short_call', false],
      [15, 'short_call', false],
      [45, 'repeat_short_calls,short_call', false],
    ]);
    // A long call of the same caller after them: the pattern counts, the call itself is no short one.
    env.replacementClock.now = DAY_AT + 3_600_000;
    const long = await env.simulator.play(
      script(leadNumber, caller, { ...answered(60), stirVerstat: 'TN-Validation-Passed-C' }),
    );
    expect(await storedCdr(sidOf(long))).toMatchObject({
      spam_score: 50,
      spam_reasons: 'attestation_c,repeat_short_calls',
      spam: false,
      commission: '40.00',
    });
    env.replacementClock.now = DAY_AT;
  });

  it('a caller dialling many tracking numbers within minutes is judged spam, and earns nothing', async () => {
    const caller = newCaller();
    const targets = [leadNumber, ...otherNumbers];
    const cdrs: Body[] = [];
    for (const [i, to] of targets.entries()) {
      env.replacementClock.now = DAY_AT + i * 60_000;
      const call = await env.simulator.play(
        script(to, caller, { ...answered(4), stirVerstat: 'TN-Validation-Passed-C' }),
      );
      cdrs.push(await storedCdr(sidOf(call)));
    }
    expect(cdrs.map((cdr) => cdr.spam_reasons)).toEqual([
      'attestation_c,short_call',
      'attestation_c,short_call',
      'attestation_c,many_numbers,short_call',
    ]);
    expect(cdrs[2]).toMatchObject({ spam_score: 65, spam: false });
    // With a lower threshold the same pattern is spam: the lead source's call loses its commission.
    await policy('--spam-threshold', '60');
    env.replacementClock.now = DAY_AT + 4 * 60_000;
    const again = await env.simulator.play(
      script(leadNumber, caller, { ...answered(45), stirVerstat: 'TN-Validation-Passed-C' }),
    );
    expect(await storedCdr(sidOf(again))).toMatchObject({
      spam_score: 80,
      spam_reasons: 'attestation_c,repeat_short_calls,many_numbers',
      spam: true,
      commission: null,
    });
    await policy('--spam-threshold', '70');
    env.replacementClock.now = DAY_AT;
  });

  describe('lists and policies', () => {
    afterEach(async () => {
      await policy('--spam-policy', 'allow');
    });

    it('a block-listed caller is rejected under the reject policy, and its missed call notifies nobody', async () => {
      const caller = newCaller();
      // Written nationally: the one number reader makes it the caller's E.164.
      const listed = await env.api.write('POST', '/spam/block_list', { number: caller.slice(3) });
      expect(listed.status).toBe(200);
      expect(recordOf(listed, 'spam_numbers', 'spam_number', 'json')).toMatchObject({
        number: caller,
        list: 'block',
      });
      await policy('--spam-policy', 'reject');
      const call = await env.simulator.play(
        script(missedNumber, caller, { dialed: { outcome: 'no-answer' } }),
      );
      expect(call.exchanges[0]!.response.text).toContain('<Response><Reject/></Response>');
      const cdr = await storedCdr(sidOf(call));
      expect(cdr).toMatchObject({ answered: false, spam: true, spam_score: 100 });
      expect(String(cdr.spam_reasons).split(',')[0]).toBe('block_listed');
      expect(await outbox(cdr.cdr_id as string)).toEqual([]);

      // The same missed call from a caller on no list notifies the source as ever.
      await policy('--spam-policy', 'allow');
      const honest = await env.simulator.play(
        script(missedNumber, newCaller(), { dialed: { outcome: 'no-answer' } }),
      );
      const honestCdr = await storedCdr(sidOf(honest));
      expect(honestCdr).toMatchObject({ answered: false, spam: false });
      expect(await outbox(honestCdr.cdr_id as string)).toEqual([{ channel: 'email', kind: 'missed_call' }]);

      // Redis lost the lists: a rebuild of the projections restores them from Postgres.
      const keys = partnerKeys(env.stores.redis.keyPrefix, PARTNER.advId);
      await env.redis.del(keys.spamLists);
      await env.operator('projections:rebuild');
      expect(await env.redis.hgetall(keys.spamLists)).toEqual({ [caller]: 'block' });

      const removed = await env.api.remove(`/spam/block_list/${encodeURIComponent(caller)}`);
      expect(removed.status).toBe(200);
      const gone = await env.api.remove(`/spam/block_list/${encodeURIComponent(caller)}`);
      expect(gone.status).toBe(404);
    });

    it("a source's own policy overrides the partner's for that source only, until it is deleted", async () => {
      const caller = newCaller();
      expect((await env.api.write('POST', '/spam/block_list', { number: caller })).status).toBe(200);
      const [flyer, radio] = otherNumbers as [string, string];
      const [{ id: flyerId }] = (await env.stores.dataSource.query(
        `SELECT id::text AS id FROM sources WHERE destnr = $1 AND status = 'active'`,
        [flyer],
      )) as [{ id: string }];
      const path = `/sources/${flyerId}/spam_policy`;
      const put = await env.api.write('PUT', path, { policy: 'reject' });
      expect(put.status).toBe(200);
      expect(recordOf(put, 'spam_policies', 'spam_policy', 'json')).toEqual({
        source_id: flyerId,
        policy: 'reject',
        threshold: null,
      });

      const read = await env.api.read(path, 'xml');
      expect(read.status).toBe(200);
      expect(read.text).toContain(
        `<spam_policy><source_id>${flyerId}</source_id><policy>reject</policy><threshold/></spam_policy>`,
      );
      expect((await env.api.write('PUT', path, { policy: 'hangup' })).status).toBe(400);
      expect((await env.api.write('PUT', path, { policy: 'reject', threshold: '101' })).status).toBe(400);
      expect((await env.api.write('PUT', path, { policy: 'reject', color: 'red' })).status).toBe(400);
      expect(
        (await env.api.write('PUT', '/sources/999999999/spam_policy', { policy: 'reject' })).status,
      ).toBe(404);
      expect((await env.api.read('/sources/abc/spam_policy')).status).toBe(404);

      // The partner's policy is allow: only the overridden source rejects the block-listed caller.
      const rejected = await env.simulator.play(script(flyer, caller, answered(45)));
      expect(rejected.exchanges[0]!.response.text).toContain('<Response><Reject/></Response>');
      expect(await storedCdr(sidOf(rejected))).toMatchObject({ spam: true, spam_score: 100 });
      const dialled = await env.simulator.play(script(radio, caller, answered(45)));
      expect(dialled.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);

      // Deleted: the source is back on the partner's policy.
      const removed = await env.api.remove(path);
      expect(recordOf(removed, 'spam_policies', 'spam_policy', 'json')).toMatchObject({ policy: null });
      const after = await env.simulator.play(script(flyer, caller, answered(45)));
      expect(after.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
      expect((await env.api.remove(`/spam/block_list/${encodeURIComponent(caller)}`)).status).toBe(200);
    });

    it("a source's own threshold judges its calls, on the record too", async () => {
      const [{ id: radioId }] = (await env.stores.dataSource.query(
        `SELECT id::text AS id FROM sources WHERE destnr = $1 AND status = 'active'`,
        [otherNumbers[1]],
      )) as [{ id: string }];
      const path = `/sources/${radioId}/spam_policy`;
      expect((await env.api.write('PUT', path, { policy: 'allow', threshold: '10' })).status).toBe(200);
      const unverified = { ...answered(45), stirVerstat: 'No-TN-Validation' };
      const call = await env.simulator.play(script(otherNumbers[1]!, newCaller(), unverified));
      expect(call.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
      expect(await storedCdr(sidOf(call))).toMatchObject({ spam_score: 10, spam: true });
      expect((await env.api.remove(path)).status).toBe(200);
      const after = await env.simulator.play(script(otherNumbers[1]!, newCaller(), unverified));
      expect(await storedCdr(sidOf(after))).toMatchObject({ spam_score: 10, spam: false });
    });

    it('voicemail and challenge policies answer with the greeting and with the press-1 screening', async () => {
      await policy('--spam-policy', 'voicemail');
      const toVoicemail = await env.simulator.play(
        script(leadNumber, newCaller(), {
          stirVerstat: 'TN-Validation-Failed-A',
          message: { seconds: 2, audio: testWav(2, 9) },
        }),
      );
      expect(toVoicemail.documents[0]!.map((verb) => verb.name)).toEqual(['Say', 'Record']);
      // Sent to voicemail by the policy, the record waits for the recording and keeps the verdict.
      expect(await storedCdr(sidOf(toVoicemail))).toMatchObject({
        answered: false,
        spam: true,
        stir_verstat: 'TN-Validation-Failed-A',
        commission: null,
      });

      await policy('--spam-policy', 'challenge');
      const challenged = await env.simulator.play(
        script(leadNumber, newCaller(), {
          ...answered(45),
          stirVerstat: 'TN-Validation-Failed-A',
          screenDigits: '1',
        }),
      );
      const dial = challenged.documents[0]![0]!;
      expect(dial.name).toBe('Dial');
      expect(dial.children[0]!.attributes.url).toContain('/telephony/twilio/screen');
      expect(challenged.documents[1]!.map((verb) => verb.name)).toEqual(['Gather', 'Hangup']);

      // A caller the policy does not judge spam is dialled without screening.
      const honest = await env.simulator.play(
        script(leadNumber, newCaller(), { ...answered(45), stirVerstat: 'TN-Validation-Passed-A' }),
      );
      expect(honest.documents[0]![0]!.children[0]!.attributes.url).toBeUndefined();
    });

    it('an allow-listed caller is never spam, whatever its verification', async () => {
      const caller = newCaller();
      expect((await env.api.write('POST', '/spam/allow_list', { number: caller })).status).toBe(200);
      await policy('--spam-policy', 'reject');
      const call = await env.simulator.play(
        script(leadNumber, caller, { ...answered(45), stirVerstat: 'TN-Validation-Failed' }),
      );
      expect(call.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
      expect(await storedCdr(sidOf(call))).toMatchObject({
        stir_verstat: 'TN-Validation-Failed',
        spam_score: 0,
        spam_reasons: 'allow_listed',
        spam: false,
        commission: '40.00',
      });
      const page = await env.api.read('/spam/allow_list');
      expect(page.body).toMatchObject({
        total: 1,
        page: 0,
        spam_numbers: [{ number: caller, list: 'allow' }],
      });
    });
  });

  it('privacy:erase takes the caller out of the spam lists and the caller history', async () => {
    const caller = newCaller();
    expect((await env.api.write('POST', '/spam/block_list', { number: caller })).status).toBe(200);
    const call = await env.simulator.play(script(leadNumber, caller, answered(4)));
    await storedCdr(sidOf(call));
    const keys = partnerKeys(env.stores.redis.keyPrefix, PARTNER.advId);
    expect(await env.redis.hget(keys.spamLists, caller)).toBe('block');
    expect(await env.redis.exists(keys.callerNumbers(caller), keys.callerShortCalls(caller))).toBe(2);

    const out = await env.operator('privacy:erase', '--partner', PARTNER.advId, '--caller', caller);
    // The list row, the projected entry and the two history keys.
    expect(out).toContain('  spam list and history erased: 3');
    expect(await env.redis.hget(keys.spamLists, caller)).toBeNull();
    expect(await env.redis.exists(keys.callerNumbers(caller), keys.callerShortCalls(caller))).toBe(0);
    expect((await env.api.read('/spam/block_list')).body).toMatchObject({ total: 0, spam_numbers: [] });
  });

  describe('re-marking a call (PUT /cdrs/<cdr_id>/spam)', () => {
    it('adjusts the commission while the month is open, feeds the caller history, and is idempotent', async () => {
      const caller = newCaller();
      const call = await env.simulator.play(script(leadNumber, caller, answered(45)));
      const cdr = await storedCdr(sidOf(call));
      expect(cdr.commission).toBe('40.00');

      const marked = await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, { spam: '1' });
      expect(marked.status).toBe(200);
      expect(recordOf(marked, 'cdrs', 'cdr', 'json')).toMatchObject({ spam: '1', commission: null });
      expect(await storedCdr(sidOf(call))).toMatchObject({ spam: true, spam_marked: true, commission: null });
      const again = await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, { spam: '1' }, 'xml');
      expect(again.status).toBe(200);
      expect(again.text).toContain('<spam>1</spam>');

      // The caller's next call carries the mark.
      env.replacementClock.now = DAY_AT + 3_600_000;
      const next = await env.simulator.play(script(leadNumber, caller, answered(45)));
      expect(await storedCdr(sidOf(next))).toMatchObject({ spam_score: 40, spam_reasons: 'marked_spam' });

      const unmarked = await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, { spam: '0' });
      expect(recordOf(unmarked, 'cdrs', 'cdr', 'json')).toMatchObject({ spam: '0', commission: '40.00' });
      env.replacementClock.now = DAY_AT + 2 * 3_600_000;
      const after = await env.simulator.play(
        script(leadNumber, caller, { ...answered(45), stirVerstat: 'TN-Validation-Failed' }),
      );
      // Not spam lowers: a failed verification alone no longer reaches the threshold.
      expect(await storedCdr(sidOf(after))).toMatchObject({
        spam_score: 30,
        spam_reasons: 'attestation_failed,marked_not_spam',
        spam: false,
      });
      // The clock stays: digest nonces issued at a later time are not valid earlier.
    });

    it('keeps the commission of a closed month, refuses bad input and other partners', async () => {
      const call = await env.simulator.play(script(leadNumber, newCaller(), answered(45)));
      const cdr = await storedCdr(sidOf(call));
      expect((await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, { spam: 'yes' })).status).toBe(400);
      expect((await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, {})).status).toBe(400);
      expect((await env.api.write('PUT', '/cdrs/999999999/spam', { spam: '1' })).status).toBe(404);
      expect((await env.api.write('PUT', '/cdrs/abc/spam', { spam: '1' })).status).toBe(404);

      // The month of the call ended 40 days later: the mark is kept, the commission is not touched.
      env.replacementClock.now += 40 * DAY_MS;
      const marked = await env.api.write('PUT', `/cdrs/${cdr.cdr_id}/spam`, { spam: '1' });
      expect(marked.status).toBe(200);
      expect(recordOf(marked, 'cdrs', 'cdr', 'json')).toMatchObject({ spam: '1', commission: '40.00' });
      expect(await storedCdr(sidOf(call))).toMatchObject({
        spam: true,
        spam_marked: true,
        commission: '40.00',
      });
    });
  });
});
