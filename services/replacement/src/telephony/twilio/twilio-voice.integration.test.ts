import { createServer } from 'node:http';
import { decodeDialOutcome, partnerKeys, writePartnerProjection } from '@trackline/contracts';
import { greetingAudioSignatureMatches } from '@trackline/domain';
import { listen } from '@trackline/platform';
import {
  freePort,
  ProviderCallSimulator,
  readTwiml,
  RecordingServer,
  type ProviderAccount,
} from '@trackline/test-harness';
import { createReplacementApp } from '../../app';
import {
  partnerConfig,
  projection,
  silentLogger,
  sourceRoute,
  testConfig,
  uniqueAdvId,
} from '../../test-support/fixtures';
import { singleRedisTarget, type RedisTarget } from '../../test-support/redis-target';
import { startTestServer, type TestServer } from '../../test-support/test-server';

const PUBLIC = 'https://calls.trackline.test';
const TOKEN = 'twilio-test-token';

let target: RedisTarget;
let app: TestServer;
let simulator: ProviderCallSimulator;
let recordings: RecordingServer;
const advId = uniqueAdvId('twilio');
const STATIC = '+4790000101';
const DIVERTING = '+4790000102';
const VOICEMAIL_ONLY = '+4790000103';
// Recording answered calls (docs/telephony.md): a partner that records, one of its sources that does
// not, and a source of the non-recording partner that records without an announcement.
const recordingAdvId = uniqueAdvId('twilio-rec');
const RECORDED = '+4790000104';
const NOT_RECORDED = '+4790000105';
const RECORDED_SILENTLY = '+4790000106';

function account(overrides: Partial<ProviderAccount> = {}): ProviderAccount {
  return {
    accountSid: 'AC00000000000000000000000000000001',
    authToken: TOKEN,
    signatureHeader: 'X-Twilio-Signature',
    targetFor: (url) => url.replace(PUBLIC, app.baseUrl),
    ...overrides,
  };
}

function voiceFields(callSid: string, to: string, from = '+4798765432'): [string, string][] {
  return [
    ['AccountSid', 'AC00000000000000000000000000000001'],
    ['ApiVersion', '2010-04-01'],
    ['CallSid', callSid],
    ['CallStatus', 'ringing'],
    ['Called', to],
    ['Caller', from],
    ['Direction', 'inbound'],
    ['From', from],
    ['To', to],
  ];
}

beforeAll(async () => {
  target = await singleRedisTarget();
  app = await startTestServer(target.redis, target.keyPrefix);
  recordings = new RecordingServer('AC00000000000000000000000000000001', TOKEN);
  simulator = new ProviderCallSimulator(account(), recordings);
  await writePartnerProjection(
    target.redis,
    target.keyPrefix,
    projection(
      partnerConfig(advId),
      [],
      [
        sourceRoute({ sourceId: '201', destnr: STATIC, phonenr: '+4722334401' }),
        sourceRoute({
          sourceId: '202',
          destnr: DIVERTING,
          phonenr: '+4722334402',
          vmDivertBusy: true,
          vmDivertNoanswer: true,
          vmGreetingId: '77',
        }),
        sourceRoute({ sourceId: '203', destnr: VOICEMAIL_ONLY, phonenr: '+4722334403', vmDivertAll: true }),
        sourceRoute({
          sourceId: '206',
          destnr: RECORDED_SILENTLY,
          phonenr: '+4722334406',
          callRecording: { recordCalls: true, consentAnnouncement: '' },
        }),
      ],
    ),
  );
  await writePartnerProjection(
    target.redis,
    target.keyPrefix,
    projection(
      { ...partnerConfig(recordingAdvId), recordCalls: true, consentAnnouncement: 'Calls are recorded.' },
      [],
      [
        sourceRoute({ sourceId: '204', destnr: RECORDED, phonenr: '+4722334404' }),
        sourceRoute({
          sourceId: '205',
          destnr: NOT_RECORDED,
          phonenr: '+4722334405',
          callRecording: { recordCalls: false, consentAnnouncement: null },
        }),
      ],
    ),
  );
});

afterAll(async () => {
  await app?.close();
  await target?.close();
});

describe('POST /telephony/twilio/voice', () => {
  it('answers a signed call to a source number with a dial document', async () => {
    const exchange = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-static-1', STATIC),
    );
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.contentType).toBe('text/xml; charset=utf-8');
    const [dial, ...rest] = readTwiml(exchange.response.text);
    expect(rest).toEqual([]);
    expect(dial!.name).toBe('Dial');
    expect(dial!.attributes).toMatchObject({ timeout: '20', answerOnBridge: 'true', method: 'POST' });
    const action = new URL(dial!.attributes.action!);
    expect(`${action.origin}${action.pathname}`).toBe(`${PUBLIC}/telephony/twilio/dial-result`);
    expect(action.searchParams.get('adv')).toBe(advId);
    expect(action.searchParams.get('divert')).toBe('');
    expect(dial!.children).toEqual([{ name: 'Number', attributes: {}, text: '+4722334401', children: [] }]);
    // The escaped & comes back as & once parsed: the raw document carries &amp;.
    expect(exchange.response.text).toContain('dial-result?adv=');
    expect(exchange.response.text).toMatch(/&amp;to=%2B4790000101&amp;divert=/);
  });

  it("records an answered call after the consent announcement when the partner's settings say so", async () => {
    const exchange = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-recorded-1', RECORDED),
    );
    const [say, dial, ...rest] = readTwiml(exchange.response.text);
    expect(rest).toEqual([]);
    expect(say).toMatchObject({ name: 'Say', text: 'Calls are recorded.' });
    expect(dial!.name).toBe('Dial');
    expect(dial!.attributes).toMatchObject({
      record: 'record-from-answer-dual',
      recordingStatusCallback:
        'https://manage.trackline.test/telephony/twilio/recording?to=%2B4790000104&kind=conversation',
      recordingStatusCallbackMethod: 'POST',
      recordingStatusCallbackEvent: 'completed',
    });
  });

  it("follows the source's recording settings over the partner's, both ways", async () => {
    const off = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-recorded-2', NOT_RECORDED),
    );
    const [dial, ...rest] = readTwiml(off.response.text);
    expect(rest).toEqual([]);
    expect(dial!.name).toBe('Dial');
    expect(dial!.attributes).not.toHaveProperty('record');
    expect(dial!.attributes).not.toHaveProperty('recordingStatusCallback');

    const silent = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-recorded-3', RECORDED_SILENTLY),
    );
    const [recordedDial, ...after] = readTwiml(silent.response.text);
    expect(after).toEqual([]);
    expect(recordedDial!.name).toBe('Dial');
    expect(recordedDial!.attributes.record).toBe('record-from-answer-dual');
  });

  it('accepts SignalWire’s signature header the same way', async () => {
    const signalwire = new ProviderCallSimulator(
      account({ signatureHeader: 'X-SignalWire-Signature' }),
      recordings,
    );
    const exchange = await signalwire.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-sw-1', STATIC),
    );
    expect(exchange.response.status).toBe(200);
    expect(readTwiml(exchange.response.text)[0]!.name).toBe('Dial');
  });

  it('refuses a wrong, missing or Host-based signature with 403 and routes nothing', async () => {
    const wrongToken = new ProviderCallSimulator(account({ authToken: 'not-the-token' }), recordings);
    const wrong = await wrongToken.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-forged-1', STATIC),
    );
    expect(wrong.response.status).toBe(403);
    expect(JSON.parse(wrong.response.text)).toEqual({ error: { status: 403, message: 'Invalid signature' } });

    // Signed for the address it was actually sent to, not the configured public URL.
    const hostBased = new ProviderCallSimulator(account({ targetFor: (url) => url }), recordings);
    const local = await hostBased.post(
      `${app.baseUrl}/telephony/twilio/voice`,
      voiceFields('CA-forged-2', STATIC),
    );
    expect(local.response.status).toBe(403);

    const unsigned = await fetch(`${app.baseUrl}/telephony/twilio/voice`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(voiceFields('CA-forged-3', STATIC)).toString(),
    });
    expect(unsigned.status).toBe(403);
    for (const callId of ['CA-forged-1', 'CA-forged-2', 'CA-forged-3'])
      expect(await target.redis.exists(partnerKeys(target.keyPrefix, advId).call(callId))).toBe(0);
  });

  it('rejects a call to a number that is not one of ours', async () => {
    const exchange = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-unknown-1', '+4790999999'),
    );
    expect(exchange.response.status).toBe(200);
    expect(readTwiml(exchange.response.text)).toEqual([
      { name: 'Reject', attributes: {}, text: '', children: [] },
    ]);
    // A released number lands here too; docs/operations.md lists the counter.
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(metrics).toContain('trackline_calls_to_unknown_numbers_total{via="provider"} 1');
  });

  it('names a missing field with 400', async () => {
    const fields = voiceFields('CA-x', STATIC).filter(([name]) => name !== 'To');
    const exchange = await simulator.post(`${PUBLIC}/telephony/twilio/voice`, fields);
    expect(exchange.response.status).toBe(400);
    expect(JSON.parse(exchange.response.text).error.message).toMatch(/^To/);
  });

  it('sends a divert-all source to voicemail: spoken prompt, then Record with the management callback', async () => {
    const exchange = await simulator.post(
      `${PUBLIC}/telephony/twilio/voice`,
      voiceFields('CA-vm-1', VOICEMAIL_ONLY),
    );
    const [say, record] = readTwiml(exchange.response.text);
    expect(say!.name).toBe('Say');
    expect(record!.name).toBe('Record');
    expect(record!.attributes.action).toBe(`${PUBLIC}/telephony/twilio/recorded`);
    expect(record!.attributes.recordingStatusCallback).toBe(
      'https://manage.trackline.test/telephony/twilio/recording?to=%2B4790000103',
    );
  });
});

describe('POST /telephony/twilio/dial-result', () => {
  async function dialThenResult(callSid: string, to: string, result: [string, string][]) {
    const voice = await simulator.post(`${PUBLIC}/telephony/twilio/voice`, voiceFields(callSid, to));
    const action = readTwiml(voice.response.text)[0]!.attributes.action!;
    return simulator.post(action, [...voiceFields(callSid, to), ...result]);
  }

  it('diverts a busy dial to voicemail with the source’s greeting as a signed, expiring link', async () => {
    const result = await dialThenResult('CA-busy-1', DIVERTING, [['DialCallStatus', 'busy']]);
    expect(result.response.status).toBe(200);
    const [play, record] = readTwiml(result.response.text);
    expect(play!.name).toBe('Play');
    const link = new URL(play!.text);
    expect(`${link.origin}${link.pathname}`).toBe(
      'https://manage.trackline.test/telephony/greetings/77/audio',
    );
    const expires = Number(link.searchParams.get('expires'));
    expect(expires).toBe(Math.floor(app.clock.now / 1000) + 3600);
    expect(
      greetingAudioSignatureMatches(TOKEN, '77', expires, link.searchParams.get('sig')!, app.clock.now),
    ).toBe(true);
    expect(record!.name).toBe('Record');
    const stored = await target.redis.get(partnerKeys(target.keyPrefix, advId).callDial('CA-busy-1'));
    expect(decodeDialOutcome(stored!)).toMatchObject({ status: 'busy', durationSeconds: 0, voicemail: true });
  });

  it('hangs up after an answered dial and keeps its talk time', async () => {
    const result = await dialThenResult('CA-ok-1', DIVERTING, [
      ['DialCallStatus', 'completed'],
      ['DialCallDuration', '42'],
      ['DialCallSid', 'CAd000000000000000000000000000001'],
    ]);
    expect(readTwiml(result.response.text).map((verb) => verb.name)).toEqual(['Hangup']);
    const stored = await target.redis.get(partnerKeys(target.keyPrefix, advId).callDial('CA-ok-1'));
    expect(decodeDialOutcome(stored!)).toMatchObject({
      status: 'completed',
      durationSeconds: 42,
      voicemail: false,
    });
  });

  it('hangs up on no answer when the source does not divert', async () => {
    const result = await dialThenResult('CA-na-1', STATIC, [['DialCallStatus', 'no-answer']]);
    expect(readTwiml(result.response.text).map((verb) => verb.name)).toEqual(['Hangup']);
  });

  it('refuses an unknown dial status with 400 naming it', async () => {
    const result = await dialThenResult('CA-bad-1', STATIC, [['DialCallStatus', 'exploded']]);
    expect(result.response.status).toBe(400);
    expect(JSON.parse(result.response.text).error.message).toMatch(/^DialCallStatus/);
  });
});

describe('a partner’s ring timeout and call screening', () => {
  const screening = uniqueAdvId('screen');
  const SCREENED = '+4790000201';

  beforeAll(async () => {
    await writePartnerProjection(
      target.redis,
      target.keyPrefix,
      projection(
        partnerConfig(screening, { ringTimeoutSeconds: 35, screenCalls: true }),
        [],
        [sourceRoute({ sourceId: '301', destnr: SCREENED, phonenr: '+4722334501', vmDivertNoanswer: true })],
      ),
    );
  });

  async function dialDocument(callSid: string) {
    const voice = await simulator.post(`${PUBLIC}/telephony/twilio/voice`, voiceFields(callSid, SCREENED));
    return readTwiml(voice.response.text)[0]!;
  }

  function legFields(callSid: string): [string, string][] {
    return [
      ['CallSid', `${callSid}-leg`],
      ['ParentCallSid', callSid],
      ['CallStatus', 'in-progress'],
      ['Direction', 'outbound-dial'],
    ];
  }

  it('rings for the partner’s timeout and sends the answering phone a whisper', async () => {
    const dial = await dialDocument('CA-screen-0');
    expect(dial.attributes.timeout).toBe('35');
    const whisperUrl = dial.children[0]!.attributes.url!;
    expect(whisperUrl).toBe(`${PUBLIC}/telephony/twilio/screen?adv=${encodeURIComponent(screening)}`);
    const whisper = await simulator.post(whisperUrl, legFields('CA-screen-0'));
    const [gather, hangup] = readTwiml(whisper.response.text);
    expect(gather).toMatchObject({ name: 'Gather', attributes: { numDigits: '1', input: 'dtmf' } });
    expect(gather!.children[0]!.text).toMatch(/Press 1/);
    expect(hangup!.name).toBe('Hangup');
  });

  it('counts a screened call as answered only after 1 was pressed', async () => {
    const dial = await dialDocument('CA-screen-1');
    const whisper = readTwiml(
      (await simulator.post(dial.children[0]!.attributes.url!, legFields('CA-screen-1'))).response.text,
    );
    const pressed = await simulator.post(whisper[0]!.attributes.action!, [
      ...legFields('CA-screen-1'),
      ['Digits', '1'],
    ]);
    expect(readTwiml(pressed.response.text)).toEqual([]);
    const result = await simulator.post(dial.attributes.action!, [
      ...voiceFields('CA-screen-1', SCREENED),
      ['DialCallStatus', 'completed'],
      ['DialCallDuration', '61'],
    ]);
    expect(readTwiml(result.response.text).map((verb) => verb.name)).toEqual(['Hangup']);
    const stored = await target.redis.get(partnerKeys(target.keyPrefix, screening).callDial('CA-screen-1'));
    expect(decodeDialOutcome(stored!)).toMatchObject({ status: 'completed', durationSeconds: 61 });
  });

  it('takes a picked-up call without the key press (an answering machine) as not answered', async () => {
    const dial = await dialDocument('CA-screen-2');
    const whisper = readTwiml(
      (await simulator.post(dial.children[0]!.attributes.url!, legFields('CA-screen-2'))).response.text,
    );
    const wrongKey = await simulator.post(whisper[0]!.attributes.action!, [
      ...legFields('CA-screen-2'),
      ['Digits', '5'],
    ]);
    expect(readTwiml(wrongKey.response.text).map((verb) => verb.name)).toEqual(['Hangup']);
    // The provider reports the leg completed after its few seconds of whisper.
    const result = await simulator.post(dial.attributes.action!, [
      ...voiceFields('CA-screen-2', SCREENED),
      ['DialCallStatus', 'completed'],
      ['DialCallDuration', '4'],
    ]);
    // No answer, so the source's no-answer diversion applies.
    expect(readTwiml(result.response.text).map((verb) => verb.name)).toEqual(['Say', 'Record']);
    const stored = await target.redis.get(partnerKeys(target.keyPrefix, screening).callDial('CA-screen-2'));
    expect(decodeDialOutcome(stored!)).toMatchObject({
      status: 'no-answer',
      durationSeconds: 0,
      voicemail: true,
    });
  });
});

describe('with Redis down', () => {
  it('answers 503 at once, so the provider uses the number’s fallback URL', async () => {
    const deadPort = await freePort();
    const down = createReplacementApp({
      config: testConfig('down:', {
        redis: { ...testConfig('down:').redis, url: `redis://127.0.0.1:${deadPort}`, commandTimeoutMs: 100 },
        storeDeadlineMs: 150,
      }),
      logger: silentLogger,
    });
    // Given up at once, so no reconnection timer outlives the file; commands fail as while Redis is down.
    down.redis.disconnect();
    const server = createServer(down.handler);
    const port = await listen(server, 0, '127.0.0.1');
    try {
      const downSimulator = new ProviderCallSimulator(
        account({ targetFor: (url) => url.replace(PUBLIC, `http://127.0.0.1:${port}`) }),
        recordings,
      );
      const exchange = await downSimulator.post(
        `${PUBLIC}/telephony/twilio/voice`,
        voiceFields('CA-down-1', STATIC),
      );
      expect(exchange.response.status).toBe(503);
      expect(JSON.parse(exchange.response.text)).toEqual({
        error: { status: 503, message: 'Routing store unavailable' },
      });
      // The switch's endpoint answers a store outage the same way (docs/architecture.md, One edge).
      const routed = await fetch(`http://127.0.0.1:${port}/telephony/route`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer switch-token' },
        body: JSON.stringify({ call_id: 'down-2', anum: '+4791234567', bnum: STATIC }),
      });
      expect(routed.status).toBe(503);
      expect(routed.headers.get('retry-after')).toBe('1');
      expect(await routed.json()).toEqual({ error: { status: 503, message: 'Routing store unavailable' } });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await down.close();
    }
  });
});
