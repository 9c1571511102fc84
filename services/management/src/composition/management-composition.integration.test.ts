import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { Logger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../db/data-source';
import type { RouteContext, RouteDefinition } from '../http/route-definition';
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

  function route(method: string, path: string): RouteDefinition {
    const found = routes.find((candidate) => candidate.method === method && candidate.path === path);
    if (found === undefined) throw new Error(`no route ${method} ${path}`);
    return found;
  }

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
    const context = (input: Partial<RouteContext>): RouteContext => ({
      partner: credentials!.partner,
      params: {},
      query: {},
      body: {},
      now: new Date(),
      log: {} as Logger,
      ...input,
    });

    const created = await route('POST', '/customers').handle(
      context({ body: { name: 'Kari AS', custnr: '100', custom_1: 'x' } }),
    );
    expect(created).toMatchObject({
      kind: 'records',
      records: [{ name: 'Kari AS', custnr: '100', custom_1: 'x' }],
    });
    if (created.kind !== 'records') throw new Error(`unexpected ${created.kind} response`);
    const customerId = created.records[0]!.customer_id as string;

    const deleted = await route('DELETE', '/customers/:customerId').handle(
      context({ params: { customerId } }),
    );
    expect(deleted).toMatchObject({ records: [{ customer_id: customerId }] });
    expect(await route('GET', '/customers').handle(context({}))).toMatchObject({ records: [] });
  });
});
