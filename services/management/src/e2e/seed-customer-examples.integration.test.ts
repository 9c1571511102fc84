import { DigestClient } from '../test-support/digest-client';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { PartnerApi, SEED_FORM_CONTENT_TYPE, withFormat, type Format } from '../test-support/partner-api';

// The seed's customer operations, run the way a partner's server runs them: digest credentials as
// `curl --digest` sends them, urlencoded writes with the seed's spelling of the content type, both
// method overrides, versioned and version-less paths, in JSON and in XML.
describe('the seed customer examples, end to end over HTTPS', () => {
  let stores: TestStores;
  let service: RunningService;
  let api: PartnerApi;
  let raw: DigestClient;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'bilsalg', 'correct horse battery', ['127.0.0.1', '::1']);
    service = await startTestService(testConfig(stores));
    api = new PartnerApi(service.port, 'bilsalg-api', 'correct horse battery');
    raw = new DigestClient(service.port, 'bilsalg-api', 'correct horse battery');
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  /** The one record an answer wraps under `customers` (an array in JSON, elements in XML). */
  function customerOf(body: Record<string, unknown>, format: Format): Record<string, unknown> {
    const wrapped = body.customers as Record<string, unknown> | Array<Record<string, unknown>>;
    if (format === 'json') {
      expect(Array.isArray(wrapped)).toBe(true);
      expect(wrapped).toHaveLength(1);
      return (wrapped as Array<Record<string, unknown>>)[0]!;
    }
    return (wrapped as Record<string, unknown>).customer as Record<string, unknown>;
  }

  async function overridden(path: string, how: 'query' | 'header', method: 'PUT' | 'DELETE', body = '') {
    return raw.request({
      method: 'POST',
      path: how === 'query' ? `${path}?_method=${method}` : path,
      headers: {
        'Content-Type': SEED_FORM_CONTENT_TYPE,
        ...(how === 'header' ? { 'X-HTTP-Method-Override': method } : {}),
      },
      body,
    });
  }

  it.each<Format>(['json', 'xml'])(
    'ping, create, find by custnr, read, update and delete in %s',
    async (format) => {
      const custnr = `seed-${format}`;
      const ping = await api.read('/v1/miscellaneous/ping', format);
      expect(ping.status).toBe(200);
      expect(ping.body.ping).toBe('ok');

      const created = await api.write('POST', '/v1/customers', { name: 'Bjørn Ærø AS', custnr }, format);
      expect(created.status).toBe(200);
      const customer = customerOf(created.body, format);
      expect(customer).toMatchObject({
        name: 'Bjørn Ærø AS',
        custnr,
        receive_monthly_report: '0',
        service_caller_id: '0',
      });
      expect(customer.customer_id).toMatch(/^\d+$/);
      expect(customer.uuid).toMatch(/^[0-9a-f-]{36}$/);
      if (format === 'xml') expect(created.text).toContain('<corporateid/>');
      else expect(customer.corporateid).toBeNull();
      const id = String(customer.customer_id);

      const found = await api.read(`/customers?custnr=${custnr}`, format);
      expect(customerOf(found.body, format)).toEqual(customer);

      // PUT through ?_method= on a POST: a key left out keeps its value.
      const byQuery = await overridden(
        withFormat(`/v1/customers/${id}`, format),
        'query',
        'PUT',
        'name=Nytt+Navn',
      );
      expect(byQuery.status).toBe(200);
      const renamed = await api.read(`/customers/${id}`, format);
      expect(customerOf(renamed.body, format)).toMatchObject({ customer_id: id, name: 'Nytt Navn', custnr });

      // PUT through X-HTTP-Method-Override.
      const byHeader = await overridden(
        withFormat(`/customers/${id}`, format),
        'header',
        'PUT',
        'email=post%40nytt.example&receive_monthly_report=1',
      );
      expect(byHeader.status).toBe(200);
      const updated = await api.read(`/v1/customers/${id}`, format);
      expect(customerOf(updated.body, format)).toMatchObject({
        name: 'Nytt Navn',
        email: 'post@nytt.example',
        receive_monthly_report: '1',
      });

      // A strict flag: anything but "0"/"1" is a 400 naming the field.
      const badFlag = await api.write('PUT', `/customers/${id}`, { service_caller_id: 'yes' }, format);
      expect(badFlag.status).toBe(400);
      const message = format === 'json' ? (badFlag.body.error as { message: string }).message : badFlag.text;
      expect(message).toContain('service_caller_id');

      const deleted = await overridden(withFormat(`/customers/${id}`, format), 'header', 'DELETE');
      expect(deleted.status).toBe(200);
      expect((await api.read(`/customers/${id}`, format)).status).toBe(404);
    },
  );
});
