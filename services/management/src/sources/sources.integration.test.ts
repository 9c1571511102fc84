import { ForbiddenError, NotFoundError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import type { TypeormNumbersStore } from '../numbers/numbers.store';
import { insertTestPartners } from '../test-support/test-partners';
import type { SourceChangeListener } from './source-change-listener';
import type { SourceInput } from './source';
import type { ManagementServices } from '../composition/management-services';
import type { SourcesService } from './sources.service';
import type { TypeormSourcesStore } from './sources.store';
import { createManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { storesOn } from '../composition/stores-on-manager';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

// The source service on the real database: destnr assignment under concurrency, hold-back, and the
// transaction boundary the listener sits behind.
describe('sources on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let service: SourcesService;
  let spamPolicies: ManagementServices['sourceSpamPolicies'];
  let callSettings: ManagementServices['sourceCallSettings'];
  let store: TypeormSourcesStore;
  let numbers: TypeormNumbersStore;
  let changed: string[];
  let partnerId: string;
  let customerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = storesOn(dataSource.manager).sources;
    numbers = storesOn(dataSource.manager).numbers;
    const listener: SourceChangeListener = {
      sourceChanged: async (partner, source) => {
        // Called after the commit: another connection already sees the source.
        const rows = (await dataSource.query('SELECT id FROM sources WHERE id = $1', [source])) as unknown[];
        changed.push(`${partner}:${source}:${rows.length === 1 ? 'committed' : 'missing'}`);
      },
    };
    // The services as the composition root builds them, its listener the only one.
    ({
      sources: service,
      sourceSpamPolicies: spamPolicies,
      sourceCallSettings: callSettings,
    } = createManagementServices(
      createManagementStores(dataSource),
      {
        digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
        greetingRecordNumber: '+4722000000',
      },
      { sourceChanges: [listener], numberChanges: [], configChanges: [] },
    ));
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  let partnerCount = 0;
  beforeEach(async () => {
    changed = [];
    partnerCount += 1;
    [partnerId] = await insertTestPartners(dataSource.manager, `p${partnerCount}`);
    [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id`,
      [partnerId],
    );
  });

  function input(overrides: Partial<SourceInput> = {}): SourceInput {
    return {
      customerId,
      name: 'Front page',
      media: null,
      phonenr: '+4722334455',
      campaignId: null,
      publisherId: null,
      email: null,
      smsnumber: null,
      vmGreetingId: null,
      sourceClass: 'standard',
      notifyOnMissedCall: false,
      notifyOnNewVoicemail: false,
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      altNumbers: [],
      customFields: {},
      ...overrides,
    };
  }

  const staticNumbers = (count: number) =>
    Array.from(
      { length: count },
      (_, i) => `+47${String(partnerCount).padStart(2, '0')}3000${String(i).padStart(2, '0')}`,
    );

  it("keeps a source's own spam policy for its partner only, and tells the projections", async () => {
    await numbers.add(partnerId, 'static', staticNumbers(1), new Date(NOW.getTime() - DAY));
    const source = await service.create(partnerId, input(), NOW);
    const [otherPartner] = await insertTestPartners(dataSource.manager, `spam-other-${partnerCount}`);
    changed = [];
    expect(await spamPolicies.get(partnerId, source.id)).toBeNull();

    await spamPolicies.set(partnerId, source.id, { policy: 'voicemail', threshold: 50 });
    expect(changed).toEqual([`${partnerId}:${source.id}:committed`]);
    expect(await spamPolicies.get(partnerId, source.id)).toEqual({ policy: 'voicemail', threshold: 50 });
    const [candidate] = await store.routeCandidates(partnerId, []);
    expect(candidate!.spamPolicy).toEqual({ policy: 'voicemail', threshold: 50 });

    // Another partner's source is not found, and stays as it was.
    await expect(spamPolicies.get(otherPartner!, source.id)).rejects.toThrow(NotFoundError);
    await expect(spamPolicies.set(otherPartner!, source.id, null)).rejects.toThrow(NotFoundError);
    expect(await spamPolicies.get(partnerId, source.id)).toEqual({ policy: 'voicemail', threshold: 50 });

    await spamPolicies.set(partnerId, source.id, { policy: 'reject', threshold: null });
    expect(await spamPolicies.get(partnerId, source.id)).toEqual({ policy: 'reject', threshold: null });
    await spamPolicies.set(partnerId, source.id, null);
    expect(await spamPolicies.get(partnerId, source.id)).toBeNull();
    expect((await store.routeCandidates(partnerId, []))[0]!.spamPolicy).toBeNull();
  });

  it("keeps a source's own call settings for its partner only, null when none, and tells the projections", async () => {
    await numbers.add(partnerId, 'static', staticNumbers(1), new Date(NOW.getTime() - DAY));
    const source = await service.create(partnerId, input(), NOW);
    const [otherPartner] = await insertTestPartners(dataSource.manager, `calls-other-${partnerCount}`);
    changed = [];
    const none = { recordCalls: null, consentAnnouncement: null, transcription: null };
    expect(await callSettings.get(partnerId, source.id)).toEqual(none);

    const own = { recordCalls: true, consentAnnouncement: '', transcription: false };
    await callSettings.set(partnerId, source.id, own);
    expect(changed).toEqual([`${partnerId}:${source.id}:committed`]);
    expect(await callSettings.get(partnerId, source.id)).toEqual(own);
    expect((await store.routeCandidates(partnerId, []))[0]!.callSettings).toEqual(own);

    await expect(callSettings.get(otherPartner!, source.id)).rejects.toThrow(NotFoundError);
    await expect(callSettings.clear(otherPartner!, source.id)).rejects.toThrow(NotFoundError);
    await expect(callSettings.get(partnerId, '999999999')).rejects.toThrow(NotFoundError);
    expect(await callSettings.get(partnerId, source.id)).toEqual(own);

    await callSettings.clear(partnerId, source.id);
    expect(await callSettings.get(partnerId, source.id)).toEqual(none);
    // Nothing overridden is a null column, not an empty object.
    const [row] = (await dataSource.query('SELECT call_intelligence FROM sources WHERE id = $1', [
      source.id,
    ])) as Array<{ call_intelligence: unknown }>;
    expect(row!.call_intelligence).toBeNull();
  });

  it('gives 10 parallel creates over 5 free numbers 5 distinct numbers and 5 refusals', async () => {
    const free = staticNumbers(5);
    await numbers.add(partnerId, 'static', free, new Date(NOW.getTime() - DAY));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => service.create(partnerId, input({ name: `s${i}` }), NOW)),
    );
    const created = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = results.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as unknown] : [],
    );
    expect(created).toHaveLength(5);
    expect(new Set(created.map((source) => source.destnr))).toEqual(new Set(free));
    expect(refused).toHaveLength(5);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(ForbiddenError);
      expect((reason as Error).message).toBe('No tracking number available');
    }
    expect(await store.countOpenSources(partnerId, customerId)).toBe(5);
    expect(changed).toHaveLength(5);
    expect(changed.every((entry) => entry.endsWith(':committed'))).toBe(true);
  });

  it('hands out the number free the longest, never a pool number or one held back', async () => {
    const [a, b, c] = staticNumbers(3);
    await numbers.add(partnerId, 'pool', [`+47${String(partnerCount).padStart(2, '0')}900000`], new Date(0));
    await numbers.add(partnerId, 'static', [b!], new Date(NOW.getTime() - 2 * DAY));
    await numbers.add(partnerId, 'static', [a!], new Date(NOW.getTime() - 3 * DAY));
    await numbers.add(partnerId, 'static', [c!], new Date(NOW.getTime() - DAY));

    const first = await service.create(partnerId, input(), NOW);
    expect(first.destnr).toBe(a);
    const closed = await service.close(partnerId, first.id, NOW);
    expect(closed).toMatchObject({ status: 'closed', destnr: a, closedAt: NOW });
    expect(await store.countOpenSources(partnerId, customerId)).toBe(0);

    expect((await service.create(partnerId, input(), NOW)).destnr).toBe(b);
    expect((await service.create(partnerId, input(), NOW)).destnr).toBe(c);
    const beforeHoldEnds = new Date(NOW.getTime() + 30 * DAY - 1);
    await expect(service.create(partnerId, input(), beforeHoldEnds)).rejects.toThrow(
      'No tracking number available',
    );
    const reused = await service.create(partnerId, input(), new Date(NOW.getTime() + 30 * DAY));
    expect(reused.destnr).toBe(a);

    const [listed] = (await numbers.list(partnerId)).filter((number) => number.e164 === a);
    expect(listed).toMatchObject({ usedBySourceId: reused.id, heldUntil: null, freeSince: null });
  });

  it('rolls the number back when the insert fails, and tells no listener', async () => {
    const [only] = staticNumbers(1);
    await numbers.add(partnerId, 'static', [only!], new Date(NOW.getTime() - DAY));
    await expect(service.create(partnerId, input({ campaignId: '999999' }), NOW)).rejects.toMatchObject({
      field: 'campaign_id',
    });
    expect(changed).toEqual([]);
    expect((await service.create(partnerId, input(), NOW)).destnr).toBe(only);
  });

  it('checks campaign and greeting ownership against the real tables', async () => {
    const [a] = staticNumbers(1);
    await numbers.add(partnerId, 'static', [a!], new Date(NOW.getTime() - DAY));
    const [{ id: otherCustomer }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Ola', 'K-2') RETURNING id`,
      [partnerId],
    );
    const [{ id: pricingModel }] = await dataSource.query(
      `INSERT INTO pricing_models (partner_id, name, type, unique_caller_time, conditions)
       VALUES ($1, 'cpl', '0', 0, '[]') RETURNING id`,
      [partnerId],
    );
    const campaign = async (customer: string) =>
      (
        (await dataSource.query(
          `INSERT INTO campaigns (partner_id, customer_id, pricing_model_id, name) VALUES ($1, $2, $3, 'c') RETURNING id`,
          [partnerId, customer, pricingModel],
        )) as Array<{ id: string }>
      )[0]!.id;
    const greeting = async (customer: string, pin: string) =>
      (
        (await dataSource.query(
          `INSERT INTO voicemail_greetings (partner_id, customer_id, name, record_pin) VALUES ($1, $2, 'g', $3) RETURNING id`,
          [partnerId, customer, pin],
        )) as Array<{ id: string }>
      )[0]!.id;
    const ownCampaign = await campaign(customerId);
    const otherCampaign = await campaign(otherCustomer);
    const ownGreeting = await greeting(customerId, `${partnerCount}00001`.slice(-6));
    const otherGreeting = await greeting(otherCustomer, `${partnerCount}00002`.slice(-6));

    await expect(service.create(partnerId, input({ campaignId: otherCampaign }), NOW)).rejects.toMatchObject({
      field: 'campaign_id',
    });
    await expect(
      service.create(partnerId, input({ vmGreetingId: otherGreeting }), NOW),
    ).rejects.toMatchObject({
      field: 'vm_greeting_id',
    });
    const source = await service.create(
      partnerId,
      input({ campaignId: ownCampaign, vmGreetingId: ownGreeting }),
      NOW,
    );
    expect(source).toMatchObject({ campaignId: ownCampaign, vmGreetingId: ownGreeting });
    const updated = await service.update(partnerId, source.id, { campaignId: null, name: 'renamed' });
    expect(updated).toMatchObject({ campaignId: null, vmGreetingId: ownGreeting, name: 'renamed' });
  });
});
