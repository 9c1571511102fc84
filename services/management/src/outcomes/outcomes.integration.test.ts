import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { PartnerApi } from '../test-support/partner-api';

const PARTNER = {
  advId: 'outcome-acme',
  username: 'outcome-acme-api',
  password: 'outcome password',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const OTHER = { advId: 'outcome-other', username: 'outcome-other-api', password: 'other password' };

type Body = Record<string, unknown>;

// PUT /cdrs/<cdr_id>/outcome as a partner's CRM posts it back: JSON and XML over digest, the 400s
// that name the field, partner isolation, and one call.outcome event per change however often the
// same outcome is posted.
describe('call outcomes', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  let other: PartnerApi;
  let cdrId: string;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER, { managementEnv: { WEBHOOK_INSECURE_HOSTS: 'hooks.test' } });
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', '+4791200001');
    await env.operator(
      'partner:create', '--name', OTHER.advId, '--username', OTHER.username, '--password', OTHER.password,
      '--signing-secret', 'another-signing-secret-of-32-chars', '--allow-ip', '127.0.0.1',
    ); // prettier-ignore
    other = new PartnerApi(env.management.port, OTHER.username, OTHER.password);
    const stored = await env.ingest({
      call_id: 'crm-call-1',
      anum: '+4798000001',
      bnum: '+4791200001',
      start: '2026-03-02 08:05:00',
      duration: 95,
      answered: 1,
    });
    expect(stored.status).toBe(201);
    cdrId = ((stored.body.cdrs as Body[])[0]!.cdr_id as string) ?? '';
    const hooked = await env.api.write('POST', '/webhooks', {
      url: 'http://hooks.test/crm',
      events: 'call.outcome',
    });
    expect(hooked.status).toBe(200);
  });

  afterAll(async () => {
    await env?.close();
  });

  async function outcomeEvents(): Promise<number> {
    const rows: Array<{ count: number }> = await env.stores.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_deliveries WHERE event_type = 'call.outcome' AND cdr_id = $1`,
      [cdrId],
    );
    return rows[0]!.count;
  }

  it('has no outcome before the first PUT, and needs a status then', async () => {
    const read = await env.api.read(`/cdrs/${cdrId}/outcome`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      outcomes: [
        {
          cdr_id: cdrId,
          call_id: 'crm-call-1',
          status: null,
          value: null,
          currency: null,
          note: null,
          modified: null,
        },
      ],
    });
    const refused = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, { value: '100' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: { status: 400, message: 'status: is required (the call has no outcome yet)' },
    });
  });

  it.each([
    [{ status: 'won' }, 'status: must be one of lead, qualified, sale, not_a_lead'],
    [{ status: 'sale', value: '12.5' }, 'currency: is required with a value'],
    [
      { status: 'sale', value: '-1', currency: 'NOK' },
      'value: must be a non-negative decimal string with at most 14 digits before the point and 4 after it',
    ],
    [
      { status: 'sale', value: '1.23456', currency: 'NOK' },
      'value: must be a non-negative decimal string with at most 14 digits before the point and 4 after it',
    ],
    [
      { status: 'sale', value: '10', currency: 'nok' },
      'currency: must be an ISO 4217 currency code of three capital letters (for example NOK)',
    ],
    [{ status: 'sale', note: 'x'.repeat(1001) }, 'note: max 1000 characters'],
    [{ status: 'sale', colour: 'red' }, 'colour: is not a known field'],
  ])('refuses %j', async (fields, message) => {
    const answer = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, fields as Record<string, string>);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { error: { status: 400, message } },
    });
    expect(await outcomeEvents()).toBe(0);
  });

  it('stores an outcome once however often the same one is posted, and raises call.outcome per change', async () => {
    const fields = { status: 'sale', value: '1500.5', currency: 'NOK', note: 'Sold the car' };
    const first = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, fields);
    expect(first.status).toBe(200);
    const [record] = first.body.outcomes as Body[];
    expect(record).toEqual({
      cdr_id: cdrId,
      call_id: 'crm-call-1',
      status: 'sale',
      value: '1500.50',
      currency: 'NOK',
      note: 'Sold the car',
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const again = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, fields);
    expect(again.body).toEqual(first.body);
    expect(await outcomeEvents()).toBe(1);

    // A key left out keeps its value; a change is a second event.
    const noted = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, { note: 'Sold, delivered Friday' });
    expect((noted.body.outcomes as Body[])[0]).toMatchObject({
      status: 'sale',
      value: '1500.50',
      currency: 'NOK',
      note: 'Sold, delivered Friday',
    });
    expect(await outcomeEvents()).toBe(2);
  });

  it('is reachable by call_id and in the extended record, and answers XML', async () => {
    const byCallId = await env.api.read('/cdrs/outcome?call_id=crm-call-1');
    expect((byCallId.body.outcomes as Body[])[0]).toMatchObject({ cdr_id: cdrId, status: 'sale' });
    const xml = await env.api.write('PUT', '/cdrs/outcome?call_id=crm-call-1', { status: 'sale' }, 'xml');
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.body).toMatchObject({
      outcomes: { outcome: { cdr_id: cdrId, status: 'sale', value: '1500.50' } },
    });
    const query = await env.api.read(`/cdrs/outcome?cdr_id=${cdrId}`);
    expect(query.body).toEqual(byCallId.body);
  });

  it('answers 404 for another partner’s record and for ids no record has', async () => {
    expect((await other.read(`/cdrs/${cdrId}/outcome`)).status).toBe(404);
    expect((await other.write('PUT', `/cdrs/${cdrId}/outcome`, { status: 'lead' })).status).toBe(404);
    expect((await other.read('/cdrs/outcome?call_id=crm-call-1')).status).toBe(404);
    expect((await env.api.read('/cdrs/999999999/outcome')).status).toBe(404);
    expect((await env.api.read('/cdrs/abc/outcome')).status).toBe(404);
    const read = await env.api.read(`/cdrs/${cdrId}/outcome`);
    expect((read.body.outcomes as Body[])[0]).toMatchObject({ status: 'sale' });
  });

  it('counts outcomes per status and sums values per currency in the monthly report', async () => {
    const customers = await env.api.write('POST', '/customers', { name: 'Outcome AS', custnr: 'OUT-1' });
    expect(customers.status).toBe(200);
    // The call had no customer; the report is per customer, so this one's month is all zeros.
    const customerId = (customers.body.customers as Body[])[0]!.customer_id as string;
    const report = await env.api.read(`/customers/${customerId}/reports/monthly?month=2026-03`);
    expect((report.body.reports as Body[])[0]!.outcomes).toEqual([
      { status: 'lead', calls: '0', sums: [] },
      { status: 'qualified', calls: '0', sums: [] },
      { status: 'sale', calls: '0', sums: [] },
      { status: 'not_a_lead', calls: '0', sums: [] },
    ]);
  });
});
