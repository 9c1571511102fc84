import { FakeCustomersStore } from '../customers/fake-customers.store';
import { inlineUnitOfWork } from '../db/unit-of-work';
import { FakeGreetingsStore } from '../greetings/fake-greetings.store';
import { GreetingsService } from '../greetings/greetings.service';
import { startRouteApp, type RouteApp } from '../test-support/route-calls';
import { telephonyRoutes } from './telephony.routes';

const TOKEN = 'switch-token-0123456789';
const NOW = new Date('2026-03-01T10:00:00Z');

describe('POST /telephony/greetings', () => {
  let app: RouteApp;
  let greetings: FakeGreetingsStore;
  let service: GreetingsService;

  beforeAll(async () => {
    const customers = new FakeCustomersStore();
    greetings = new FakeGreetingsStore(() => NOW);
    const usage = { usage: async () => new Map() };
    const pins = ['123456', '654321'];
    service = new GreetingsService(
      greetings,
      customers,
      usage,
      inlineUnitOfWork({ greetings, usage }),
      () => pins.shift()!,
      '+4722000000',
    );
    const customer = await customers.insert('1', {
      name: 'Kari',
      custnr: 'K1',
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    });
    await service.create('1', customer.id, 'Welcome');
    // The real route registration and error mapper, as the service mounts them.
    app = await startRouteApp(telephonyRoutes({ greetings: service, token: TOKEN }), { clock: () => NOW });
  });

  afterAll(async () => {
    await app.close();
  });

  async function post(
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const response = await fetch(`${app.base}/telephony/greetings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  }

  it('refuses a request without the token or with a wrong one, before reading the body', async () => {
    const missing = await post('{', { authorization: '' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="trackline-telephony"');
    expect(missing.body).toEqual({
      error: { status: 401, message: expect.stringContaining('bearer token') },
    });
    expect((await post('{}', { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('answers 400 naming the field for bad input', async () => {
    expect(await post('{"record_pin":"123456","sounddata":"@@@@"}')).toEqual(
      expect.objectContaining({
        status: 400,
        body: { error: { status: 400, message: 'sounddata: must be valid base64' } },
      }),
    );
    expect((await post('{"record_pin":"123456","sounddata":""}')).body).toEqual({
      error: { status: 400, message: 'sounddata: must not be empty' },
    });
    expect((await post('{"record_pin":"12","sounddata":"AAAA"}')).body).toEqual({
      error: { status: 400, message: 'record_pin: must be six digits' },
    });
    expect((await post('{not json')).body).toEqual({
      error: { status: 400, message: expect.stringMatching(/^body: is not valid JSON/) },
    });
    expect((await post('[]')).status).toBe(400);
    expect(
      (await post('record_pin=123456', { 'content-type': 'application/x-www-form-urlencoded' })).body,
    ).toEqual({
      error: { status: 400, message: 'body: must be JSON (Content-Type: application/json)' },
    });
  });

  it('answers 404 for a PIN no unrecorded greeting holds', async () => {
    const unknown = await post('{"record_pin":"000000","sounddata":"AAAA"}');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: { status: 404, message: 'unrecorded voicemail greeting with record_pin 000000 not found' },
    });
  });

  it('stores the recording and frees the PIN', async () => {
    const audio = Buffer.from('RIFF....WAVEfmt ');
    const stored = await post(JSON.stringify({ record_pin: '123456', sounddata: audio.toString('base64') }));
    expect(stored).toEqual(
      expect.objectContaining({
        status: 200,
        body: { vm_greeting_id: '1', customer_id: '1', datalength: String(audio.length) },
      }),
    );
    const greeting = await greetings.findById('1', '1', '1', { withSound: true });
    expect(greeting).toMatchObject({ sounddata: audio, datalength: audio.length, recorded: NOW });
    expect((await post(JSON.stringify({ record_pin: '123456', sounddata: 'AAAA' }))).status).toBe(404);
  });
});
