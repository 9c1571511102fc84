import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../db/data-source';
import type { RouteDefinition } from '../http/route-definition';
import { callRoute } from '../testing/route-calls';
import {
  createManagementRoutes,
  createManagementServices,
  type ManagementServices,
} from './management-services';
import { createManagementStores } from './management-stores';

// The wiring the HTTP app uses, end to end on a real database: operator creates a partner, digest
// lookup yields the AuthenticatedPartner, and the customer routes work for it.
describe('management composition', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let services: ManagementServices;
  let routes: RouteDefinition[];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url);
    await dataSource.initialize();
    services = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    });
    routes = createManagementRoutes(services);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('serves a partner found by its digest username', async () => {
    await services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'sixteen-chars-ok',
    });
    await services.partners.defineCustomField('acme', 'customer', 'custom_1');
    const credentials = await services.partners.findForDigest('acme-api');
    expect(credentials).not.toBeNull();
    const partner = credentials!.partner;
    const now = new Date();

    // Through the real route registration, as the partner's client sees it.
    const created = await callRoute(routes, 'POST', '/customers', {
      partner,
      now,
      body: { name: 'Kari AS', custnr: '100', custom_1: 'x' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ customers: [{ name: 'Kari AS', custnr: '100', custom_1: 'x' }] });
    const customerId = created.body.customers[0].customer_id as string;

    const deleted = await callRoute(routes, 'DELETE', '/customers/:customerId', {
      partner,
      now,
      params: { customerId },
    });
    expect(deleted.body).toMatchObject({ customers: [{ customer_id: customerId }] });
    expect((await callRoute(routes, 'GET', '/customers', { partner, now })).body).toEqual({ customers: [] });
  });
});
