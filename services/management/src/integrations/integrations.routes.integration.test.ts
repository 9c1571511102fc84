import { PartnerApi } from '../test-support/partner-api';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

type Body = Record<string, unknown>;

const GOOGLE_ADS = {
  customer_id: '123-456-7890',
  login_customer_id: '111-222-3333',
  conversion_action_id: '987654321',
  oauth_client_id: '1234-abc.apps.googleusercontent.com',
  oauth_client_secret: 'GOCSPX-client-secret-value',
  refresh_token: '1//0refresh-token-value-XyZ9',
  developer_token: 'dev-token-value-AbCd',
};

// /v1/integrations/google_ads and /v1/integrations/ga4 as a partner sets them up: secrets are
// written, never read back whole; keys left out keep their value; each partner sees its own.
describe('/v1/integrations', () => {
  let stores: TestStores;
  let service: RunningService;
  let acme: PartnerApi;
  let other: PartnerApi;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'password-acme', ['127.0.0.1']);
    await createDigestPartner(stores, 'other', 'password-other', ['127.0.0.1']);
    service = await startTestService(testConfig(stores));
    acme = new PartnerApi(service.port, 'acme-api', 'password-acme');
    other = new PartnerApi(service.port, 'other-api', 'password-other');
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  it('is 404 until set up, and the first PUT needs every credential', async () => {
    expect((await acme.read('/integrations/google_ads')).status).toBe(404);
    const partial = await acme.write('PUT', '/integrations/google_ads', { customer_id: '1234567890' });
    expect(partial.body).toEqual({
      error: {
        status: 400,
        message: 'conversion_action_id: is required (the integration is not set up yet)',
      },
    });
  });

  it('sets Google Ads up with its defaults and shows the secrets masked', async () => {
    const put = await acme.write('PUT', '/integrations/google_ads', GOOGLE_ADS);
    expect(put.status).toBe(200);
    const expected = {
      integration: 'google_ads',
      state: '0',
      customer_id: '1234567890',
      login_customer_id: '1112223333',
      conversion_action_id: '987654321',
      outcome_conversion_action_id: null,
      call_min_duration: '60',
      outcome_statuses: 'lead,qualified,sale',
      enhanced_conversions: '0',
      oauth_client_id: GOOGLE_ADS.oauth_client_id,
      oauth_client_secret: '****alue',
      refresh_token: '****XyZ9',
      developer_token: '****AbCd',
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    };
    expect(put.body).toEqual({ integrations: [expected] });
    expect(put.text).not.toContain(GOOGLE_ADS.refresh_token);
    const read = await acme.read('/integrations/google_ads');
    expect(read.body).toEqual({ integrations: [expected] });
    expect((await other.read('/integrations/google_ads')).status).toBe(404);
  });

  it('changes what is sent and keeps the rest, secrets included', async () => {
    const put = await acme.write('PUT', '/integrations/google_ads', {
      call_min_duration: '90',
      outcome_statuses: 'sale, qualified',
      enhanced_conversions: '1',
      login_customer_id: '',
    });
    expect((put.body.integrations as Body[])[0]).toMatchObject({
      call_min_duration: '90',
      outcome_statuses: 'qualified,sale',
      enhanced_conversions: '1',
      login_customer_id: null,
      refresh_token: '****XyZ9',
    });
    const rows: Array<{ secrets: Body }> = await stores.dataSource.query(
      `SELECT secrets FROM partner_integrations WHERE kind = 'google_ads'`,
    );
    expect(rows[0]!.secrets.refreshToken).toBe(GOOGLE_ADS.refresh_token);
  });

  it.each([
    [
      { customer_id: '12345' },
      'customer_id: must be a Google Ads customer id: 10 digits, dashes allowed (123-456-7890)',
    ],
    [
      { outcome_statuses: 'sale,not_a_lead' },
      'outcome_statuses: must be empty or name statuses from lead, qualified, sale, separated by commas, none twice',
    ],
    [{ enhanced_conversions: 'yes' }, 'enhanced_conversions: must be "0" or "1"'],
    [{ call_min_duration: '-5' }, 'call_min_duration: must be whole seconds from 0 to 86400'],
    [
      { developer_token: 'has space' },
      'developer_token: must be 1 to 500 printable ASCII characters without spaces',
    ],
    [{ api_secret: 'x' }, 'api_secret: is not a known field'],
  ])('refuses %j', async (fields, message) => {
    const answer = await acme.write('PUT', '/integrations/google_ads', fields as Record<string, string>);
    expect(answer.body).toEqual({ error: { status: 400, message } });
  });

  it('sets GA4 up, answers XML, and DELETE removes an integration', async () => {
    const ga4 = await acme.write(
      'PUT',
      '/integrations/ga4',
      { measurement_id: 'G-ABC123XYZ', api_secret: 'short' },
      'xml',
    );
    expect(ga4.status).toBe(200);
    expect(ga4.body).toMatchObject({
      integrations: {
        integration: { integration: 'ga4', state: '0', measurement_id: 'G-ABC123XYZ', api_secret: '****' },
      },
    });
    const bad = await acme.write('PUT', '/integrations/ga4', { measurement_id: 'UA-1234' });
    expect(bad.body).toEqual({
      error: {
        status: 400,
        message: 'measurement_id: must be a GA4 measurement id (G- and 4 to 20 capital letters or digits)',
      },
    });
    const removed = await acme.remove('/integrations/ga4');
    expect(removed.status).toBe(200);
    expect((await acme.read('/integrations/ga4')).status).toBe(404);
    expect((await acme.remove('/integrations/ga4')).status).toBe(404);
  });
});
