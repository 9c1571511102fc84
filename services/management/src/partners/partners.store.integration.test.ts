import { ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import type { PartnerValues } from './partner';
import { TypeormPartnersStore } from './partners.store';
import { partnersStoreCases } from './partners.store.cases';
import { onOwnDatabase } from '../test-support/store-case-fixtures';

function values(overrides: Partial<PartnerValues> = {}): PartnerValues {
  return {
    name: 'acme',
    digestUsername: 'acme-api',
    ha1Md5: 'a'.repeat(32),
    ha1Sha256: 'b'.repeat(64),
    signingSecret: 'sixteen-chars-ok',
    allowIps: ['192.0.2.0/24', '2001:db8::/32'],
    country: 'NO',
    timeZone: 'Europe/Oslo',
    dni: { sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null },
    showFullAnum: false,
    cdrRetentionMonths: 24,
    anumMaskAfterDays: null,
    ...overrides,
  };
}

describe('TypeormPartnersStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormPartnersStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new TypeormPartnersStore(dataSource.manager);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE partners CASCADE');
  });

  it('round-trips every setting, with the id as a decimal string', async () => {
    const inserted = await store.insert(values({ dni: { ...values().dni, fallbackNumber: '+4722334455' } }));
    expect(inserted.id).toMatch(/^[1-9]\d*$/);
    const found = await store.findByUsername('acme-api');
    expect(found).toEqual(inserted);
    expect(found).toMatchObject({
      ...values({ dni: { ...values().dni, fallbackNumber: '+4722334455' } }),
      customFields: { customer: [], source: [] },
    });
    expect(found!.created).toBeInstanceOf(Date);
  });

  it('translates a duplicate name or username into a validation error naming it', async () => {
    await store.insert(values());
    await expect(store.insert(values({ digestUsername: 'other' }))).rejects.toMatchObject({ field: 'name' });
    const other = await store.insert(values({ name: 'beta', digestUsername: 'beta-api' }));
    const error = await store
      .update(other.id, { digestUsername: 'acme-api' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'username' });
  });

  it('updates only the given columns', async () => {
    const inserted = await store.insert(values());
    const updated = await store.update(inserted.id, {
      timeZone: 'UTC',
      dni: {
        sessionTtlSeconds: 1800,
        holdBackSeconds: 600,
        onExhausted: 'original',
        fallbackNumber: '+4722334455',
      },
    });
    expect(updated).toMatchObject({ name: 'acme', timeZone: 'UTC', signingSecret: 'sixteen-chars-ok' });
    expect(updated.dni).toEqual({
      sessionTtlSeconds: 1800,
      holdBackSeconds: 600,
      onExhausted: 'original',
      fallbackNumber: '+4722334455',
    });
  });

  it('defines custom fields once and lists them per entity', async () => {
    const acme = await store.insert(values());
    const beta = await store.insert(values({ name: 'beta', digestUsername: 'beta-api' }));
    expect(await store.addCustomField(acme.id, 'customer', 'custom_1')).toBe(true);
    expect(await store.addCustomField(acme.id, 'customer', 'custom_1')).toBe(false);
    expect(await store.addCustomField(acme.id, 'source', 'custom_2')).toBe(true);
    expect(await store.addCustomField(beta.id, 'customer', 'custom_9')).toBe(true);

    expect((await store.findByName('acme'))!.customFields).toEqual({
      customer: ['custom_1'],
      source: ['custom_2'],
    });
    const listed = await store.list();
    expect(listed.map((partner) => [partner.name, partner.customFields])).toEqual([
      ['acme', { customer: ['custom_1'], source: ['custom_2'] }],
      ['beta', { customer: ['custom_9'], source: [] }],
    ]);
  });

  it('returns null for unknown names and usernames', async () => {
    expect(await store.findByName('nobody')).toBeNull();
    expect(await store.findByUsername('nobody')).toBeNull();
  });

  it('looks a known and an unknown username up with the same queries (no timing difference)', async () => {
    await store.insert(values({ name: 'timing', digestUsername: 'timing-api' }));
    const queries: string[] = [];
    const logger = dataSource.logger;
    const capture = Object.assign(Object.create(logger) as object, {
      logQuery: (query: string) => void queries.push(query.replace(/\s+/g, ' ')),
    });
    Object.assign(dataSource, { logger: capture });
    try {
      expect(await store.findByUsername('timing-api')).not.toBeNull();
      const known = queries.splice(0);
      expect(await store.findByUsername('nobody-api')).toBeNull();
      const unknown = queries.splice(0);
      expect(known).toHaveLength(2);
      expect(unknown).toEqual(known);
    } finally {
      Object.assign(dataSource, { logger });
    }
  });
});

describe('TypeormPartnersStore, the cases its fake passes too', () => {
  partnersStoreCases(onOwnDatabase(async ({ manager }) => new TypeormPartnersStore(manager)));
});
