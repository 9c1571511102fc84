import { createServer, type Server } from 'node:http';
import { TwilioNumbersSimulator } from '@trackline/test-harness';
import { CarrierError } from './carrier-error';
import { TwilioNumbersClient, type CarrierClientOptions } from './twilio-numbers.client';

const OPTIONS: CarrierClientOptions = { timeoutMs: 2_000, rateLimitRetries: 1, retryDelayMs: 1 };

async function caught(work: Promise<unknown>): Promise<CarrierError> {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof CarrierError)) throw new Error(`expected a CarrierError, got ${String(error)}`);
  return error;
}

// The client against the simulator, Twilio's paths and SignalWire's (/api/laml): what it sends,
// how it follows pages, and how each failure becomes one CarrierError.
describe.each([
  ['Twilio', ''],
  ['SignalWire', '/api/laml'],
])('TwilioNumbersClient on %s', (_carrier, pathPrefix) => {
  const simulator = new TwilioNumbersSimulator({ pathPrefix });
  const client = () => new TwilioNumbersClient(simulator, OPTIONS);
  beforeAll(() => simulator.start());
  afterAll(() => simulator.stop());
  beforeEach(() => {
    simulator.requests.length = 0;
  });

  it('searches, buys with the webhooks set, finds the number on a later page and releases it', async () => {
    simulator.stock({ country: 'US', areaCode: '510', count: 2 });
    const found = await client().searchAvailable({
      country: 'US',
      areaCode: '510',
      contains: '555',
      limit: 5,
    });
    expect(found.map((number) => number.phoneNumber)).toEqual(['+15105550000', '+15105550001']);
    expect(simulator.requests[0]!.query).toEqual({ PageSize: '5', AreaCode: '510', Contains: '555' });

    const bought = await client().buy({
      phoneNumber: '+15105550001',
      voiceUrl: 'https://calls.example.com/telephony/twilio/voice',
      statusCallback: 'https://manage.example.com/telephony/twilio/call-status',
      friendlyName: 'trackline test',
    });
    expect(bought).toEqual({
      sid: expect.stringMatching(/^PN[0-9a-f]{32}$/),
      phoneNumber: '+15105550001',
      friendlyName: 'trackline test',
      voiceUrl: 'https://calls.example.com/telephony/twilio/voice',
      statusCallback: 'https://manage.example.com/telephony/twilio/call-status',
    });

    for (let i = 0; i < 120; i++) simulator.own(`+1212555${String(i).padStart(4, '0')}`);
    simulator.phoneNumberFilter = 'ignored';
    try {
      // 121 owned numbers in pages of 50: the bought one, first, and one on the third page.
      expect((await client().findOwned('+15105550001'))?.sid).toBe(bought.sid);
      simulator.requests.length = 0;
      const late = await client().findOwned('+12125550110');
      expect(late?.phoneNumber).toBe('+12125550110');
      expect(
        simulator.requests.map((request) => [request.path.startsWith(pathPrefix), request.query.Page ?? '0']),
      ).toEqual([
        [true, '0'],
        [true, '1'],
        [true, '2'],
      ]);
      expect(await client().findOwned('+19995550000')).toBeNull();
    } finally {
      simulator.phoneNumberFilter = 'exact';
    }

    await client().release(bought.sid);
    expect(await client().findOwned('+15105550001')).toBeNull();
    const again = await caught(client().release(bought.sid));
    expect({ status: again.status, code: again.code, retryable: again.retryable }).toEqual({
      status: 404,
      code: 20404,
      retryable: false,
    });
  });

  it('turns 401, 21422 and 429 into CarrierErrors with the code, retrying a 429 once', async () => {
    const wrong = await caught(
      new TwilioNumbersClient(
        { accountSid: simulator.accountSid, authToken: 'wrong', baseUrl: simulator.baseUrl },
        OPTIONS,
      ).searchAvailable({
        country: 'US',
        limit: 1,
      }),
    );
    expect([wrong.status, wrong.code, wrong.message, wrong.retryable]).toEqual([
      401,
      20003,
      'Authenticate',
      false,
    ]);
    expect(wrong.message).not.toContain('wrong');

    const taken = await caught(
      client().buy({
        phoneNumber: '+15105559999',
        voiceUrl: 'https://x',
        statusCallback: 'https://y',
        friendlyName: 'f',
      }),
    );
    expect([taken.status, taken.code]).toEqual([400, 21422]);

    simulator.rateLimit(1);
    expect(await client().findOwned('+19995550000')).toBeNull();
    simulator.rateLimit(2);
    const limited = await caught(client().findOwned('+19995550000'));
    expect([limited.status, limited.code, limited.retryable]).toEqual([429, 20429, true]);
  });
});

describe('TwilioNumbersClient without an answer', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Accepts and never answers: the request times out.
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is a retryable CarrierError with status 0 that names the host, not the token', async () => {
    const client = new TwilioNumbersClient(
      { accountSid: `AC${'1'.repeat(32)}`, authToken: 'secret-token', baseUrl },
      { ...OPTIONS, timeoutMs: 100 },
    );
    const error = await caught(client.findOwned('+15105550000'));
    expect([error.status, error.code, error.retryable]).toEqual([0, null, true]);
    expect(error.message).toBe(`no answer from ${new URL(baseUrl).host}: timed out`);
  });
});
