import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { ManagementClient, WebhookEvent } from '@trackline/client';
import { createLogger } from '@trackline/platform';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { testConfig } from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';

const EXAMPLES = join(__dirname, '../../../../docs/examples');

// docs/examples/partner-flow.ts is its own workspace package (type-checked by `pnpm build`); it is
// loaded here by path so that this service's build does not take it in.
interface PartnerFlow {
  managementClient(settings: object): ManagementClient;
  setUpCustomer(
    api: ManagementClient,
    customer: { name: string; custnr: string; phonenr: string },
  ): Promise<{ customerId: string; sources: Array<{ name: string; customer_id: string }> }>;
  numberToShow(
    settings: object,
    visit: { pageUrl: string; visitorId: string; custnr: string; phonenr: string },
  ): Promise<{ number: string; sessionId: string | undefined }>;
  callRecords(
    api: ManagementClient,
    customerId: string,
    fromDate: string,
    toDate: string,
  ): Promise<{ total: number; cdrs: Array<{ custnr: string; bnum: string; answered: string }> }>;
  receiveWebhook(secret: string, headers: Record<string, string>, rawBody: string): WebhookEvent | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const example = require(join(EXAMPLES, 'partner-flow.ts')) as PartnerFlow;

const PARTNER = {
  advId: 'example-acme',
  username: 'example-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL = ['+4791300001', '+4791300002'];
const AT = Date.parse('2026-03-02T08:00:00Z');

function python(): { ready: true } | { ready: false; reason: string } {
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (probe.error) return { ready: false, reason: `python3 cannot be started (${probe.error.message})` };
  if (probe.status !== 0) return { ready: false, reason: 'python3 cannot import requests' };
  return { ready: true };
}
const pythonCheck = python();

// The examples of docs/examples run against both real services, so they cannot rot unnoticed.
describe('docs/examples against the started services', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  let api: ManagementClient;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let webhookSecret: string;
  let settings: Record<string, unknown>;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER, { managementEnv: { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' } });
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL);
    // A source takes a static number of its own.
    await env.operator(
      'numbers:add',
      '--partner',
      PARTNER.advId,
      '--kind',
      'static',
      '+4721300001',
      '+4721300002',
    );
    env.replacement.clock.now = AT;
    settings = {
      managementUrl: `https://127.0.0.1:${env.management.port}/v1`,
      username: PARTNER.username,
      password: PARTNER.password,
      replacementUrl: `${env.replacement.baseUrl}/dynamic-numbers`,
      advId: PARTNER.advId,
      signingSecret: PARTNER.signingSecret,
      rejectUnauthorized: false,
    };
    api = example.managementClient(settings);
    // The partner's receiver, set up once before the day starts.
    receiver = await startWebhookReceiver();
    const hook = await api.request('post', '/webhooks', {
      body: { url: receiver.url, events: 'customer.created,call.completed' },
    });
    webhookSecret = hook.data.webhooks[0].secret!;
    dispatcher = createWebhookDispatcher({
      dataSource: env.stores.dataSource,
      config: testConfig(env.stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' }),
      workerId: 'docs-examples-worker',
      logger: createLogger({ service: 'docs-examples', level: 'silent' }),
    });
  });

  afterAll(async () => {
    await dispatcher?.stop();
    api?.close();
    await receiver?.close();
    await env?.close();
  });

  /** A visitor calls the number shown: the switch routes the call and records it. */
  async function visitorCalls(callId: string, poolNumber: string): Promise<void> {
    const record = {
      call_id: callId,
      anum: '+4798000001',
      bnum: poolNumber,
      start: '2026-03-02 08:05:00',
      duration: 75,
      answered: 1,
    };
    expect((await env.route({ call_id: callId, anum: record.anum, bnum: poolNumber })).status).toBe(200);
    expect((await env.ingest(record)).status).toBe(201);
  }

  /** The deliveries of one event type that reached the receiver, sending until they have. */
  async function delivered(type: string, count: number) {
    const ofType = () => receiver.received.filter((request) => request.body.includes(`"type":"${type}"`));
    for (let round = 0; round < 50 && ofType().length < count; round++) await dispatcher.runOnce();
    return ofType();
  }

  function e164(local: string): string {
    return `+47${local.replace(/ /g, '')}`;
  }

  it('runs partner-flow.ts: customer, sources, replacement, a call record page, a verified webhook', async () => {
    const { customerId, sources } = await example.setUpCustomer(api, {
      name: 'Kari Nordmann AS',
      custnr: 'TS-100',
      phonenr: '22 33 44 55',
    });
    expect(sources).toEqual([expect.objectContaining({ name: 'Main ad', customer_id: customerId })]);

    const shown = await example.numberToShow(settings, {
      pageUrl: 'https://www.example.no/ad/1',
      visitorId: 'visitor-ts',
      custnr: 'TS-100',
      phonenr: '22 33 44 55',
    });
    expect(POOL).toContain(e164(shown.number));
    expect(shown.sessionId).toEqual(expect.any(String));

    await visitorCalls('example-ts-1', e164(shown.number));
    const page = await example.callRecords(api, customerId, '2026-03-02', '2026-03-03');
    expect(page.total).toBe(1);
    expect(page.cdrs).toEqual([
      expect.objectContaining({ custnr: 'TS-100', bnum: e164(shown.number), answered: '1' }),
    ]);

    const [created] = await delivered('customer.created', 1);
    expect(created).toBeDefined();
    expect(example.receiveWebhook(webhookSecret, created!.headers, created!.body)).toEqual({
      type: 'customer.created',
      timestamp: expect.any(String),
      data: expect.objectContaining({ customer_id: customerId, custnr: 'TS-100' }),
    });
    expect(
      example.receiveWebhook(webhookSecret, created!.headers, created!.body.replace('TS-100', 'TS-101')),
    ).toBe(undefined);
  });

  const pythonIt = pythonCheck.ready ? it : it.skip;
  const pythonTitle = pythonCheck.ready
    ? 'runs partner_flow.py: the same calls with requests, HTTPDigestAuth and hmac'
    : `runs partner_flow.py — skipped: ${pythonCheck.reason}`;
  pythonIt(pythonTitle, async () => {
    // Asynchronously: the services answering the script run in this process.
    const python = (args: string[], env: Record<string, string>, input?: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          'python3',
          [join(EXAMPLES, 'partner_flow.py'), ...args],
          { env: { ...process.env, ...env }, timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin!.end(input ?? '');
      });
    const partnerEnv = {
      TRACKLINE_MANAGEMENT_URL: settings.managementUrl as string,
      TRACKLINE_USERNAME: PARTNER.username,
      TRACKLINE_PASSWORD: PARTNER.password,
      TRACKLINE_REPLACEMENT_URL: settings.replacementUrl as string,
      TRACKLINE_ADV_ID: PARTNER.advId,
      TRACKLINE_SIGNING_SECRET: PARTNER.signingSecret,
      TRACKLINE_WEBHOOK_SECRET: webhookSecret,
      TRACKLINE_INSECURE: '1',
    };
    const run = async (
      args: string[],
      input?: string,
      env: Record<string, string> = partnerEnv,
    ): Promise<unknown> => {
      const result = await python(args, env, input);
      if (result.code !== 0)
        throw new Error(`partner_flow.py ${args[0]}: exit ${result.code}\n${result.stderr}`);
      return JSON.parse(result.stdout) as unknown;
    };

    const setUp = (await run(['setup', 'Ola Hansen Bil', 'PY-200', '22 33 44 66'])) as {
      customer_id: string;
      sources: Array<Record<string, unknown>>;
    };
    expect(setUp.sources).toEqual([
      expect.objectContaining({ name: 'Main ad', customer_id: setUp.customer_id }),
    ]);

    const shown = (await run([
      'show',
      'PY-200',
      '22 33 44 66',
      'https://www.example.no/ad/2',
      'visitor-py',
    ])) as {
      number: string;
      session_id: string;
    };
    expect(POOL).toContain(e164(shown.number));
    expect(shown.session_id).toEqual(expect.any(String));
    // A wrong signing secret is a refusal, and the page's own number is shown.
    const refused = await run(
      ['show', 'PY-200', '22 33 44 66', 'https://www.example.no/ad/2', 'visitor-other'],
      undefined,
      { ...partnerEnv, TRACKLINE_SIGNING_SECRET: 'not the secret' },
    );
    expect(refused).toEqual({
      number: '22 33 44 66',
      session_id: null,
      error: 'Invalid signature',
    });

    await visitorCalls('example-py-1', e164(shown.number));
    const page = (await run(['cdrs', setUp.customer_id, '2026-03-02', '2026-03-03'])) as {
      total: number;
      cdrs: Array<Record<string, unknown>>;
    };
    expect(page.total).toBe(1);
    expect(page.cdrs).toEqual([expect.objectContaining({ custnr: 'PY-200', bnum: e164(shown.number) })]);

    const calls = await delivered('call.completed', 2);
    const call = calls.find((request) => request.body.includes('"custnr":"PY-200"'));
    expect(call).toBeDefined();
    const event = (await run(['verify'], JSON.stringify({ headers: call!.headers, body: call!.body }))) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event).toEqual(
      expect.objectContaining({
        type: 'call.completed',
        data: expect.objectContaining({ custnr: 'PY-200' }),
      }),
    );
    const tampered = JSON.stringify({ headers: call!.headers, body: call!.body.replace('PY-200', 'PY-201') });
    expect(await run(['verify'], tampered)).toEqual({
      refused: 'no webhook-signature matches the body and the secret',
    });
  });
});
