import { testWav, type CallScript } from '@trackline/test-harness';
import { CallIntelligencePrivacyStore } from '../call-intelligence/call-intelligence-privacy.store';
import { composeCallRecordingAudio } from '../composition/call-recordings-composition';
import { RecordingFetcher } from '../telephony/twilio/recording-fetcher';
import { createBiddingSetup, recordOf, type BiddingSetup } from '../test-support/bidding-setup';
import {
  ACCOUNT_SID,
  AUTH_TOKEN,
  MANAGEMENT_BASE,
  REPLACEMENT_PUBLIC,
  startTwilioEnvironment,
  type TwilioEnvironment,
} from '../test-support/twilio-environment';

const PARTNER = {
  advId: 'recording-acme',
  username: 'recording-acme-api',
  password: 'correct horse battery',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722200001', '+4722200002'];
const ANNOUNCEMENT = 'This call is recorded for training.';

type Row = Record<string, unknown>;

// Recording answered calls end to end (docs/telephony.md, Recording answered calls): the operator
// turns recording on, replacement announces and records the dial, the provider's recording callback
// reaches management, the reference is kept with its transcription job, the audio side fetches it,
// and the partner downloads it whole and in ranges.
describe('a recorded call, from the setting to the download', () => {
  jest.setTimeout(60_000);
  let env: TwilioEnvironment;
  let bidding: BiddingSetup;
  let number: string;
  let counter = 0;

  function script(overrides: Partial<CallScript> = {}): CallScript {
    return {
      callSid: `CA${String(++counter).padStart(32, 'a')}`,
      from: '+4798765432',
      to: number,
      voiceUrl: `${REPLACEMENT_PUBLIC}/telephony/twilio/voice`,
      statusCallbackUrl: `${MANAGEMENT_BASE}/telephony/twilio/call-status`,
      dialed: { outcome: 'answered', talkSeconds: 30 },
      ...overrides,
    };
  }

  async function rows(sql: string, values: unknown[]): Promise<Row[]> {
    return (await env.stores.dataSource.query(sql, values)) as Row[];
  }

  async function recordOfCall(callSid: string): Promise<{ id: string; start: Date }> {
    const [row] = await rows('SELECT id::text AS id, start FROM cdrs WHERE call_id = $1', [callSid]);
    if (row === undefined) throw new Error(`no record for ${callSid}`);
    return { id: row.id as string, start: row.start as Date };
  }

  beforeAll(async () => {
    env = await startTwilioEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
    // A number added now is free once its hold-back has passed.
    env.replacementClock.now = Date.now() + 7 * 86_400_000;
    bidding = await createBiddingSetup(env.api, 'json', {
      custnr: 'K-200',
      phonenr: '23 45 67 11',
      costPerLead: '10.00',
      condition: {
        min_duration: '0',
        from_time: '00:00',
        to_time: '24:00',
        weekdays: 'mon,tue,wed,thu,fri,sat,sun',
      },
    });
    number = bidding.source.destnr as string;
  });

  afterAll(async () => {
    await env?.close();
  });

  it('records an answered call once the partner turns recording on, and serves it to the partner', async () => {
    const unrecorded = await env.simulator.play(script());
    expect(unrecorded.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
    expect(unrecorded.documents[0]![0]!.attributes).not.toHaveProperty('record');

    const updated = await env.operator(
      'partner:update',
      '--name', PARTNER.advId,
      '--record-calls', '1',
      '--consent-announcement', ANNOUNCEMENT,
    ); // prettier-ignore
    expect(updated[0]).toBe(`Updated partner ${PARTNER.advId}: record-calls, consent-announcement`);

    const audio = testWav(4, 11, 2);
    const call = script({ conversationAudio: audio });
    const played = await env.simulator.play(call);
    const [say, dial] = played.documents[0]!;
    expect(say).toMatchObject({ name: 'Say', text: ANNOUNCEMENT });
    expect(dial!.attributes).toMatchObject({
      record: 'record-from-answer-dual',
      recordingStatusCallbackEvent: 'completed',
    });
    // Voice webhook, dial result, status callback, recording callback: all accepted.
    expect(played.exchanges.map((exchange) => exchange.response.status)).toEqual([200, 200, 200, 200]);

    const record = await recordOfCall(call.callSid);
    const kept = await rows(
      `SELECT provider_sid, channels, duration_seconds, audio IS NULL AS no_audio, partner_id::text AS partner_id
         FROM call_recordings WHERE cdr_id = $1`,
      [record.id],
    );
    expect(kept).toEqual([
      expect.objectContaining({
        provider_sid: `RE${call.callSid.slice(2)}`,
        channels: 2,
        duration_seconds: 30,
        no_audio: true,
      }),
    ]);
    const jobs = await rows(`SELECT recording, status FROM transcription_jobs WHERE cdr_id = $1`, [
      record.id,
    ]);
    expect(jobs).toEqual([{ recording: 'conversation', status: 'pending' }]);

    // Not fetched yet: the partner is told so.
    const early = await env.api.download(`/cdrs/${record.id}/recording`);
    expect(early.status).toBe(404);
    expect(early.json()).toMatchObject({ error: { message: expect.stringContaining('not fetched yet') } });

    // The worker's audio side fetches it from the provider once and keeps it.
    const audioSide = composeCallRecordingAudio(
      env.stores.dataSource.manager,
      new RecordingFetcher({
        allowedHosts: [env.recordings.host],
        accountSid: ACCOUNT_SID,
        authToken: AUTH_TOKEN,
        timeoutMs: 5_000,
        maxBytes: 10 * 1024 * 1024,
      }),
      () => new Date(),
    );
    const fetched = await audioSide.audioOf({ cdrId: record.id, recording: 'conversation' });
    expect(fetched).toEqual({ audio, contentType: 'audio/wav' });

    const whole = await env.api.download(`/cdrs/${record.id}/recording`);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers['content-length']).toBe(String(audio.length));
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.bytes.equals(audio)).toBe(true);

    const head = await env.api.download(`/cdrs/${record.id}/recording`, { Range: 'bytes=0-43' });
    expect(head.status).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-43/${audio.length}`);
    expect(head.bytes.equals(audio.subarray(0, 44))).toBe(true);
    const tail = await env.api.download(`/cdrs/${record.id}/recording`, { Range: 'bytes=-100' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(audio.subarray(audio.length - 100))).toBe(true);
    const past = await env.api.download(`/cdrs/${record.id}/recording`, { Range: `bytes=${audio.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${audio.length}`);

    const byCallId = await env.api.download(`/cdrs/recording?call_id=${call.callSid}`);
    expect(byCallId.status).toBe(200);
    expect(byCallId.bytes.equals(audio)).toBe(true);

    // A record without any recording says so.
    const none = await env.api.download(
      `/cdrs/recording?call_id=${unrecorded.exchanges[0]!.fields.find(([name]) => name === 'CallSid')![1]}`,
    );
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ error: { message: expect.stringContaining('not recorded') } });
  });

  it('keeps one recording and one job whatever the order, however often the provider repeats', async () => {
    const call = script({ callbackOrder: 'recording-first', repeatCallbacks: true });
    const played = await env.simulator.play(call);
    expect(played.exchanges.every((exchange) => exchange.response.status === 200)).toBe(true);
    const record = await recordOfCall(call.callSid);
    expect(await rows('SELECT 1 FROM call_recordings WHERE cdr_id = $1', [record.id])).toHaveLength(1);
    expect(await rows('SELECT recording FROM transcription_jobs WHERE cdr_id = $1', [record.id])).toEqual([
      { recording: 'conversation' },
    ]);
  });

  it("lets a source switch recording off over its partner's, and back", async () => {
    const path = `/sources/${bidding.sourceId}/call_settings`;
    const put = await env.api.write('PUT', path, { record_calls: '0' });
    expect(put.status).toBe(200);
    expect(recordOf(put, 'call_settings', 'call_setting', 'json')).toEqual({
      source_id: bidding.sourceId,
      record_calls: '0',
      consent_announcement: null,
      transcription: null,
    });
    const off = await env.simulator.play(script());
    expect(off.documents[0]!.map((verb) => verb.name)).toEqual(['Dial']);
    expect(off.documents[0]![0]!.attributes).not.toHaveProperty('record');

    const bad = await env.api.write('PUT', path, { record_calls: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('record_calls');
    expect((await env.api.read('/sources/999999/call_settings')).status).toBe(404);

    const cleared = await env.api.remove(path);
    expect(recordOf(cleared, 'call_settings', 'call_setting', 'json').record_calls).toBeNull();
    const on = await env.simulator.play(script());
    expect(on.documents[0]!.map((verb) => verb.name)).toEqual(['Say', 'Dial']);
  });

  it('lets the recordings go with their records (retention, erasure)', async () => {
    const call = script();
    await env.simulator.play(call);
    const record = await recordOfCall(call.callSid);
    await rows('DELETE FROM cdrs WHERE id = $1 AND start = $2', [record.id, record.start]);
    const removed = await new CallIntelligencePrivacyStore(env.stores.dataSource.manager).deleteOrphaned();
    expect(removed).toEqual({ recordings: 1, transcripts: 0 });
    expect(await rows('SELECT 1 FROM call_recordings WHERE cdr_id = $1', [record.id])).toEqual([]);
    expect(await rows('SELECT 1 FROM transcription_jobs WHERE cdr_id = $1', [record.id])).toEqual([]);
  });
});
