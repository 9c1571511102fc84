// A partner's usual day with Trackline through @trackline/client (packages/client/README.md):
// create a customer and its source, list the sources, ask the number replacement service which
// number to show a visitor, read a page of call records, and check a webhook delivery.
// The steps are exported one by one so the test suite can run them against the started services
// (services/management/src/e2e/docs-examples.integration.test.ts); `main` runs them from the
// environment. The same calls without the client: partner_flow.py.
import {
  ManagementClient,
  ReplacementClient,
  verifyWebhook,
  WebhookVerificationError,
  type ManagementComponents,
  type WebhookEvent,
  type WebhookHeaders,
} from '@trackline/client';

type Source = ManagementComponents['schemas']['Source'];
type CdrsPage = ManagementComponents['schemas']['CdrsPage'];

export interface PartnerSettings {
  /** The management address handed out with the credentials, with the version: `https://api.example.com/v1`. */
  managementUrl: string;
  username: string;
  password: string;
  /** The replacement service's `…/dynamic-numbers` address. */
  replacementUrl: string;
  /** The partner's name on the replacement service (`advId`). */
  advId: string;
  signingSecret: string;
  /** false only for a development server with a self-signed certificate. */
  rejectUnauthorized?: boolean;
}

export function managementClient(settings: PartnerSettings): ManagementClient {
  return new ManagementClient({
    baseUrl: settings.managementUrl,
    username: settings.username,
    password: settings.password,
    algorithm: 'SHA-256',
    rejectUnauthorized: settings.rejectUnauthorized ?? true,
  });
}

/** Creates the customer and one source for its ad, then lists the customer's sources. */
export async function setUpCustomer(
  api: ManagementClient,
  customer: { name: string; custnr: string; phonenr: string },
): Promise<{ customerId: string; sources: Source[] }> {
  const created = await api.request('post', '/customers', {
    body: { name: customer.name, custnr: customer.custnr },
  });
  const customerId = created.data.customers[0].customer_id;
  await api.request('post', '/sources', {
    body: { customer_id: customerId, name: 'Main ad', phonenr: customer.phonenr },
  });
  const listed = await api.request('get', '/sources', { params: { query: { customer_id: customerId } } });
  return { customerId, sources: listed.data.sources };
}

/**
 * The number to show a visitor of the ad page: the replacement's, or the page's own when the
 * service does not answer in time or refuses (docs/number-replacement.md).
 */
export async function numberToShow(
  settings: PartnerSettings,
  visit: { pageUrl: string; visitorId: string; custnr: string; phonenr: string; sessionId?: string },
): Promise<{ number: string; sessionId: string | undefined }> {
  const dni = new ReplacementClient({ url: settings.replacementUrl, signingSecret: settings.signingSecret });
  try {
    const answer = await dni.replaceNumbers({
      advId: settings.advId,
      fullUrl: visit.pageUrl,
      trackingId: visit.visitorId,
      numbers: visit.phonenr,
      type: 'web',
      fullReferrer: '',
      parameters: { custnr: visit.custnr },
      userAgent: 'Mozilla/5.0',
      requestIpAddress: '203.0.113.0',
      sessionId: visit.sessionId ?? '',
    });
    return { number: answer.numbers[0].replace_with.local, sessionId: answer.sessionId };
  } catch {
    return { number: visit.phonenr, sessionId: visit.sessionId };
  }
}

/** One page (0 first) of the customer's call records from `fromDate` (inclusive) to `toDate` (exclusive). */
export async function callRecords(
  api: ManagementClient,
  customerId: string,
  fromDate: string,
  toDate: string,
  page = 0,
): Promise<CdrsPage> {
  // openapi-fetch's own form: the error comes back as `error` instead of being thrown.
  const { data, error, response } = await api.GET('/statistics/cdrs', {
    params: { query: { customer_id: customerId, from_date: fromDate, to_date: toDate, page, pagesize: 100 } },
  });
  if (data === undefined) throw new Error(`call records: HTTP ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/**
 * What a receiver does with a delivery (docs/webhooks.md): verify over the raw body, then act.
 * Returns the event, or undefined for a delivery that must not be trusted (answer it 400).
 */
export function receiveWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Buffer,
): WebhookEvent | undefined {
  let event: WebhookEvent;
  try {
    event = verifyWebhook(secret, headers, rawBody);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return undefined;
    throw error;
  }
  return event;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

/** `TRACKLINE_* … node dist/partner-flow.js`: the steps above against your own account. */
export async function main(): Promise<void> {
  const settings: PartnerSettings = {
    managementUrl: required('TRACKLINE_MANAGEMENT_URL'),
    username: required('TRACKLINE_USERNAME'),
    password: required('TRACKLINE_PASSWORD'),
    replacementUrl: required('TRACKLINE_REPLACEMENT_URL'),
    advId: required('TRACKLINE_ADV_ID'),
    signingSecret: required('TRACKLINE_SIGNING_SECRET'),
  };
  const api = managementClient(settings);
  try {
    const customer = { name: 'Kari Nordmann AS', custnr: `example-${Date.now()}`, phonenr: '22 33 44 55' };
    const { customerId, sources } = await setUpCustomer(api, customer);
    console.log('customer', customerId, 'sources', sources.map((source) => source.source_id).join(','));
    const shown = await numberToShow(settings, {
      pageUrl: 'https://www.example.no/ad/1',
      visitorId: 'visitor-1',
      custnr: customer.custnr,
      phonenr: customer.phonenr,
    });
    console.log('show', shown.number);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const page = await callRecords(api, customerId, today, tomorrow);
    console.log('calls today', page.total);
  } finally {
    api.close();
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
