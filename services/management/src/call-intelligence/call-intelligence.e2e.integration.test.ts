import { Writable } from 'node:stream';
import pino from 'pino';
import { SpeechEngineSimulator, testWav, type CallScript } from '@trackline/test-harness';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';
import { createTranscriptionWorker } from '../composition/start-transcription-worker';
import { recordOf } from '../test-support/bidding-setup';
import { DigestClient } from '../test-support/digest-client';
import { xmlList, type ApiAnswer } from '../test-support/partner-api';
import { testConfig } from '../test-support/test-service';
import {
  MANAGEMENT_BASE,
  REPLACEMENT_PUBLIC,
  startTwilioEnvironment,
  type TwilioEnvironment,
} from '../test-support/twilio-environment';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import type { TranscriptionWorker } from './transcription-worker';
import { engineWavChannels } from './wav-channels';

const PARTNER = {
  advId: 'ci-acme',
  username: 'ci-acme-api',
  password: 'correct horse battery',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722300001', '+4722300002'];
const ENGINE_KEY = 'engine-key-0123456789';
const CARD = '4111 1111 1111 1111';
const VOICE_URL = `${REPLACEMENT_PUBLIC}/telephony/twilio/voice`;
const STATUS_URL = `${MANAGEMENT_BASE}/telephony/twilio/call-status`;

type Body = Record<string, unknown>;

// Call intelligence from a provider's recorded call to the partner's webhook (docs/call-intelligence.md):
// a voicemail left through the Twilio webhooks (signed as Twilio signs), transcribed by a speech engine
// behind the standard interface (the harness's simulator, answering as whisper.cpp's server does),
// redacted, classified, and told to the partner.
describe('call intelligence: a recorded call to a classified transcript and its events', () => {
  jest.setTimeout(120_000);
  const engine = new SpeechEngineSimulator(ENGINE_KEY);
  let env: TwilioEnvironment;
  let receiver: WebhookReceiver;
  let worker: TranscriptionWorker;
  let dispatcher: WebhookDispatcher;
  let voicemailNumber: string;
  let customerId: string;
  let sourceId: string;
  /** A record left while transcription was off: it has no transcript. */
  let untranscribed: string;
  let calls = 0;
  let seed = 100;
  const logLines: string[] = [];

  beforeAll(async () => {
    await engine.start();
    receiver = await startWebhookReceiver();
    const managementEnv = { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' };
    env = await startTwilioEnvironment(PARTNER, managementEnv);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
    // Both services' clock, past the numbers' arrival.
    env.replacementClock.now = Date.now() + 60_000;
    const customer = recordOf(
      await env.api.write('POST', '/customers', { name: 'Bilhuset', custnr: 'K-1' }),
      'customers',
      'customer',
      'json',
    );
    const source = recordOf(
      await env.api.write('POST', '/sources', {
        customer_id: customer.customer_id as string,
        name: 'Ad desk',
        phonenr: '23 45 67 09',
        vm_divert_all: '1',
      }),
      'sources',
      'source',
      'json',
    );
    voicemailNumber = source.destnr as string;
    customerId = customer.customer_id as string;
    sourceId = source.source_id as string;
    const hook = await env.api.write('POST', '/webhooks', {
      url: receiver.url,
      events: 'call.transcribed,call.classified,call.outcome',
    });
    expect(hook.status).toBe(200);

    const config = testConfig(env.stores, {
      ...managementEnv,
      STT_BASE_URL: engine.baseUrl,
      STT_API_KEY: ENGINE_KEY,
      STT_MODEL: 'whisper-test',
      STT_TIMEOUT_MS: '2000',
      TRANSCRIPTION_MAX_ATTEMPTS: '3',
      TRANSCRIPTION_BASE_DELAY_MS: '10',
    });
    // Every line the worker and the dispatcher log, at every level, for the search below.
    const logger = pino(
      { level: 'trace' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    worker = createTranscriptionWorker({
      dataSource: env.stores.dataSource,
      config,
      workerId: 'ci-worker',
      counters: env.management.app.metrics.transcription,
      logger,
    });
    dispatcher = createWebhookDispatcher({
      dataSource: env.stores.dataSource,
      config,
      workerId: 'ci-hooks',
      logger,
    });
  });

  afterAll(async () => {
    await receiver?.close();
    await env?.close();
    await engine.stop();
  });

  /** A voicemail left on the source, saying `text`; answers the stored record's id. */
  async function leaveVoicemail(text: string | null, language = 'en'): Promise<string> {
    const audio = testWav(3, ++seed);
    // The engine hears the recording as the worker sends it: 16 kHz mono.
    if (text !== null)
      engine.say(engineWavChannels(audio)![0]!, { language, segments: [{ start: 0.5, end: 2.8, text }] });
    const script: CallScript = {
      callSid: `CA${String(++calls).padStart(32, '7')}`,
      from: `+4798100${String(calls).padStart(3, '0')}`,
      to: voicemailNumber,
      voiceUrl: VOICE_URL,
      statusCallbackUrl: STATUS_URL,
      message: { seconds: 3, audio },
    };
    await env.simulator.play(script);
    const [row] = (await env.stores.dataSource.query(`SELECT id::text AS id FROM cdrs WHERE call_id = $1`, [
      script.callSid,
    ])) as Array<{ id: string }>;
    expect(row).toBeDefined();
    return row!.id;
  }

  async function transcriptRow(cdrId: string): Promise<Body | undefined> {
    const rows = (await env.stores.dataSource.query(`SELECT * FROM transcripts WHERE cdr_id = $1`, [
      cdrId,
    ])) as Body[];
    return rows[0];
  }

  async function job(cdrId: string): Promise<Body> {
    const [row] = (await env.stores.dataSource.query(
      `SELECT status, attempts, last_error, recording FROM transcription_jobs WHERE cdr_id = $1`,
      [cdrId],
    )) as Body[];
    return row!;
  }

  async function outcome(cdrId: string): Promise<Body> {
    const [row] = (await env.stores.dataSource.query(
      `SELECT outcome_status, outcome_note FROM cdrs WHERE id = $1`,
      [cdrId],
    )) as Body[];
    return row!;
  }

  /** The partner's server sending a JSON body (lists as JSON arrays). */
  async function writeJson(
    method: 'PUT',
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: Body }> {
    const client = new DigestClient(env.management.port, PARTNER.username, PARTNER.password);
    const result = await client.request({
      method,
      path,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: result.status, body: result.json() as Body };
  }

  function transcriptOf(answer: ApiAnswer, format: 'json' | 'xml' = 'json'): Body {
    expect(answer.status).toBe(200);
    return recordOf(answer, 'transcripts', 'transcript', format);
  }

  function rulesOf(answer: ApiAnswer): Body {
    expect(answer.status).toBe(200);
    return recordOf(answer, 'classification_rules', 'classification_rule', 'json');
  }

  /** The record as GET /statistics/cdrs?extended=1 lists it. */
  async function extendedRecord(cdrId: string): Promise<Body> {
    const answer = await env.api.read(
      `/v1/statistics/cdrs?customer_id=${customerId}&extended=1&pagesize=1000`,
    );
    expect(answer.status).toBe(200);
    const record = (answer.body.cdrs as Body[]).find((cdr) => cdr.cdr_id === cdrId);
    expect(record).toBeDefined();
    return record!;
  }

  it('sends nothing while the partner has transcription off', async () => {
    const before = engine.requests.length;
    const cdrId = await leaveVoicemail('Is the car still available?');
    expect(await job(cdrId)).toMatchObject({ status: 'pending', recording: 'voicemail' });
    expect(await worker.round(new Date())).toBe(1);
    expect(engine.requests.length).toBe(before);
    expect(await job(cdrId)).toMatchObject({ status: 'sent' });
    expect(await transcriptRow(cdrId)).toBeUndefined();
    untranscribed = cdrId;
  });

  it('transcribes, redacts, classifies, sets the outcome and tells the partner', async () => {
    const settings = await env.api.write('PUT', '/settings', { transcription: '1', auto_outcome: 'lead' });
    expect(settings.status).toBe(200);
    expect(recordOf(settings, 'settings', 'setting', 'json')).toMatchObject({
      transcription: '1',
      auto_outcome: 'lead',
      redact_cards: '1',
    });
    const cdrId = await leaveVoicemail(
      `Hi, is the Volvo still available? My card is ${CARD}, or call me on 912 34 567, john.smith@example.no.`,
    );
    expect(await worker.round(new Date())).toBe(1);

    const request = engine.requests.at(-1)!;
    expect(request.authorization).toBe(`Bearer ${ENGINE_KEY}`);
    expect(request.fields).toEqual({ model: 'whisper-test', response_format: 'verbose_json' });
    const transcript = await transcriptRow(cdrId);
    expect(transcript).toMatchObject({
      status: 'done',
      language: 'english',
      model: 'whisper-test',
      classification: 'lead',
      text: 'Hi, is the Volvo still available? My card is [card], or call me on [phone], [email].',
    });
    expect(transcript!.reasons).toEqual([
      expect.objectContaining({ rule: 'lead', phrase: 'still available', matched: 'still available' }),
    ]);
    expect(await outcome(cdrId)).toEqual({
      outcome_status: 'lead',
      outcome_note: 'set from the call classification',
    });

    await dispatcher.runOnce();
    const events = receiver.received.map((hook) => JSON.parse(hook.body) as { type: string; data: Body });
    expect(
      events
        .filter((event) => event.data.cdr_id === cdrId)
        .map((event) => event.type)
        .sort(),
    ).toEqual(['call.classified', 'call.outcome', 'call.transcribed']);
    // The events carry the extended record, its transcript's summary with it.
    expect(
      events.find((event) => event.type === 'call.classified' && event.data.cdr_id === cdrId)!.data,
    ).toMatchObject({
      transcript_status: 'done',
      classification: 'lead',
      keywords_spotted: '',
    });
    // The card number is nowhere: not stored, not sent, not in a reason.
    const stored = JSON.stringify(
      await env.stores.dataSource.query(
        `SELECT t.*, j.last_error FROM transcripts t LEFT JOIN transcription_jobs j USING (cdr_id)`,
      ),
    );
    const changes = (await env.api.read('/cdrs/changes?limit=1000')).text;
    expect(logLines.length).toBeGreaterThan(0); // a search of nothing would pass
    for (const text of [stored, changes, ...logLines, ...receiver.received.map((hook) => hook.body)]) {
      expect(text).not.toContain('4111');
      expect(text).not.toContain('john.smith');
    }
  });

  it('answers the transcript over the API, in JSON and XML, by record and by call id, and on the extended record', async () => {
    const cdrId = await leaveVoicemail('Is the Volvo still available? Can I get financing?');
    // Queued, not yet taken up by the worker: no transcript yet (pending from when the worker has it).
    const queued = transcriptOf(await env.api.read(`/v1/cdrs/${cdrId}/transcript`));
    expect(queued).toMatchObject({ cdr_id: cdrId, status: 'none', text: null, segments: null });
    await worker.round(new Date());

    const json = transcriptOf(await env.api.read(`/v1/cdrs/${cdrId}/transcript`));
    expect(json).toEqual({
      cdr_id: cdrId,
      call_id: expect.stringMatching(/^CA/),
      status: 'done',
      language: 'english',
      duration: expect.stringMatching(/^\d+\.\d\d$/),
      model: 'whisper-test',
      text: 'Is the Volvo still available? Can I get financing?',
      segments: [
        {
          start: '0.50',
          end: '2.80',
          text: 'Is the Volvo still available? Can I get financing?',
          channel: null,
        },
      ],
      classification: 'lead',
      classification_reasons: [
        {
          rule: 'lead',
          phrase: 'still available',
          matched: 'still available',
          at: expect.stringMatching(/^\d+\.\d\d$/),
          channel: null,
          signal: null,
          detail: null,
        },
      ],
      keywords_spotted: ['financ*'],
      error: null,
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const byCallId = transcriptOf(
      await env.api.read(`/v1/cdrs/transcript?call_id=${encodeURIComponent(json.call_id as string)}`),
    );
    expect(byCallId).toEqual(json);

    const xml = transcriptOf(await env.api.read(`/v1/cdrs/${cdrId}/transcript`, 'xml'), 'xml');
    expect(xml).toMatchObject({ cdr_id: cdrId, status: 'done', classification: 'lead', text: json.text });
    expect(xmlList<Body>((xml.segments as Body).segment)).toEqual([
      { start: '0.50', end: '2.80', text: json.text, channel: '' },
    ]);
    expect(xmlList<Body>((xml.classification_reasons as Body).classification_reason)).toEqual([
      expect.objectContaining({ rule: 'lead', phrase: 'still available', signal: '' }),
    ]);
    expect(xmlList((xml.keywords_spotted as Body).keyword)).toEqual(['financ*']);

    expect(await extendedRecord(cdrId)).toMatchObject({
      transcript_status: 'done',
      classification: 'lead',
      keywords_spotted: 'financ*',
    });
    // A record without a transcript answers status none; an unknown one is 404.
    expect(transcriptOf(await env.api.read(`/v1/cdrs/${untranscribed}/transcript`))).toMatchObject({
      cdr_id: untranscribed,
      status: 'none',
      classification: null,
      keywords_spotted: null,
    });
    expect(await extendedRecord(untranscribed)).toMatchObject({
      transcript_status: 'none',
      classification: null,
      keywords_spotted: null,
    });
    expect((await env.api.read('/v1/cdrs/999999999/transcript')).status).toBe(404);
    expect((await env.api.read('/v1/cdrs/transcript?call_id=CA-unknown')).status).toBe(404);
  });

  it("classifies the next call by the partner's rules, a source's rules over them, and refuses bad lists", async () => {
    const builtin = rulesOf(await env.api.read('/v1/classification_rules'));
    expect(builtin).toMatchObject({ builtin: '1', keywords: expect.arrayContaining(['financ*']) });
    expect(builtin.lead).toContain('still available');

    // A form field carries a list as JSON text; the lists left out keep the lists in force.
    const put = rulesOf(
      await env.api.write('PUT', '/v1/classification_rules', { keywords: '["sunroof", "tow bar"]' }),
    );
    expect(put).toMatchObject({ builtin: '0', keywords: ['sunroof', 'tow bar'], lead: builtin.lead });
    expect(rulesOf(await env.api.read('/v1/classification_rules'))).toEqual(put);
    const xml = await env.api.read('/v1/classification_rules', 'xml');
    const xmlRules = recordOf(xml, 'classification_rules', 'classification_rule', 'xml');
    expect(xmlList((xmlRules.keywords as Body).keyword)).toEqual(['sunroof', 'tow bar']);

    const custom = await leaveVoicemail('Does it have a sunroof and a tow bar?');
    await worker.round(new Date());
    expect(transcriptOf(await env.api.read(`/v1/cdrs/${custom}/transcript`))).toMatchObject({
      classification: 'voicemail',
      keywords_spotted: ['sunroof', 'tow bar'],
    });
    expect(await extendedRecord(custom)).toMatchObject({
      classification: 'voicemail',
      keywords_spotted: 'sunroof,tow bar',
    });

    // The source's own rules, sent as JSON arrays, replace the partner's for its calls.
    const sourceRules = await writeJson('PUT', `/v1/sources/${sourceId}/classification_rules`, {
      lead: ['tow bar'],
      not_a_lead: [],
      existing_customer: [],
      wrong_number: [],
      keywords: [],
    });
    expect(sourceRules.status).toBe(200);
    expect((sourceRules.body.classification_rules as Body[])[0]).toMatchObject({
      source_id: sourceId,
      lead: ['tow bar'],
      keywords: [],
      own: '1',
      builtin: '0',
    });
    const overridden = await leaveVoicemail('Does it have a sunroof and a tow bar?');
    await worker.round(new Date());
    expect(transcriptOf(await env.api.read(`/v1/cdrs/${overridden}/transcript`))).toMatchObject({
      classification: 'lead',
      classification_reasons: [expect.objectContaining({ rule: 'lead', phrase: 'tow bar' })],
      keywords_spotted: [],
    });
    expect(await extendedRecord(overridden)).toMatchObject({ classification: 'lead', keywords_spotted: '' });
    const removed = await env.api.remove(`/v1/sources/${sourceId}/classification_rules`);
    expect(rulesOf(removed)).toMatchObject({
      source_id: sourceId,
      own: '0',
      keywords: ['sunroof', 'tow bar'],
    });
    expect((await env.api.read('/v1/sources/999999999/classification_rules')).status).toBe(404);
    expect((await env.api.remove('/v1/sources/999999999/classification_rules')).status).toBe(404);

    const refused = async (fields: Record<string, string>): Promise<string> => {
      const answer = await env.api.write('PUT', '/v1/classification_rules', fields);
      expect(answer.status).toBe(400);
      return (answer.body.error as { message: string }).message;
    };
    expect(await refused({ lead: '["still available", "  "]' })).toMatch(/^lead\[1\]: /);
    const tooMany = JSON.stringify(Array.from({ length: 201 }, (_, i) => `word${i}`));
    expect(await refused({ keywords: tooMany })).toMatch(/^keywords: at most 200 phrases/);
    expect(await refused({ hot_lead: '["sunroof"]' })).toMatch(/^hot_lead: unknown class/);
    expect(await refused({ keywords: '["tow, bar"]' })).toMatch(/^keywords\[0\]: /);
    expect(await refused({ lead: 'still available' })).toMatch(/^lead: must be a JSON array/);
    // Nothing refused was stored.
    expect(rulesOf(await env.api.read('/v1/classification_rules'))).toEqual(put);

    expect(rulesOf(await env.api.remove('/v1/classification_rules'))).toEqual(builtin);
  });

  it("never overrides the partner's own outcome", async () => {
    const cdrId = await leaveVoicemail('Hello, I would like a test drive of the Golf.');
    expect(
      (
        await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, {
          status: 'sale',
          value: '1000',
          currency: 'NOK',
        })
      ).status,
    ).toBe(200);
    await worker.round(new Date());
    expect(await transcriptRow(cdrId)).toMatchObject({ classification: 'lead' });
    expect(await outcome(cdrId)).toEqual({ outcome_status: 'sale', outcome_note: null });
  });

  it('retries an engine that is down or answers garbage, and fails an empty transcript for good', async () => {
    const cdrId = await leaveVoicemail('Hei, er bilen fortsatt ledig?', 'no');
    engine.setMode('down', 1);
    await worker.round(new Date());
    expect(await job(cdrId)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await job(cdrId)).last_error).toMatch(/^speech engine answered 500/);
    expect(await transcriptRow(cdrId)).toMatchObject({ status: 'pending' });
    expect(transcriptOf(await env.api.read(`/v1/cdrs/${cdrId}/transcript`))).toMatchObject({
      status: 'pending',
      classification: null,
    });
    expect(await extendedRecord(cdrId)).toMatchObject({
      transcript_status: 'pending',
      keywords_spotted: null,
    });
    engine.setMode('garbage', 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await worker.round(new Date());
    expect((await job(cdrId)).last_error).toMatch(/not JSON/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.round(new Date());
    expect(await job(cdrId)).toMatchObject({ status: 'sent', attempts: 3 });
    expect(await transcriptRow(cdrId)).toMatchObject({
      status: 'done',
      classification: 'lead',
      language: 'norwegian',
    });

    const silent = await leaveVoicemail(null);
    await worker.round(new Date());
    expect(await job(silent)).toMatchObject({ status: 'dead', attempts: 1 });
    expect(await transcriptRow(silent)).toMatchObject({
      status: 'failed',
      error: 'speech engine heard no speech (an empty transcript)',
    });
    expect(transcriptOf(await env.api.read(`/v1/cdrs/${silent}/transcript`, 'xml'), 'xml')).toMatchObject({
      status: 'failed',
      error: 'speech engine heard no speech (an empty transcript)',
      segments: '',
    });
    expect(await extendedRecord(silent)).toMatchObject({ transcript_status: 'failed', classification: null });
  });

  it('gives up on a slow engine after the schedule, the reason on the transcript', async () => {
    const cdrId = await leaveVoicemail('Is it still for sale?');
    engine.slowMs = 5_000;
    engine.setMode('slow', 3);
    for (let attempt = 0; attempt < 3; attempt++) {
      await worker.round(new Date());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await job(cdrId)).toMatchObject({ status: 'dead', attempts: 3 });
    expect(await transcriptRow(cdrId)).toMatchObject({
      status: 'failed',
      error: 'speech engine no answer within 2000 ms',
    });
  });
});
