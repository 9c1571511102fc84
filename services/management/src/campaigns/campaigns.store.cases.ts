import type { PricingModelUsers } from '../pricing-models/pricing-model-users';
import type { CampaignValues } from './campaign';
import type { CampaignsStore } from './campaigns.store';

/** What a campaigns store case needs: a store, two partners, customers, and two pricing models. */
export interface CampaignsStoreFixture {
  store: CampaignsStore & PricingModelUsers;
  partnerId: string;
  otherPartnerId: string;
  /** A new customer of `partnerId`, with no campaigns yet. */
  newCustomer(): Promise<string>;
  /** Two pricing models of `partnerId`. */
  pricingModelIds: [string, string];
}

const CLOSED_AT = new Date('2026-03-02T10:00:00.000Z');

/** A campaign's values; the cases' and the integration test's. */
export function campaignValues(
  pricingModelId: string,
  vmGreetingId: string | null,
  overrides: Partial<CampaignValues> = {},
): CampaignValues {
  return {
    name: 'Spring',
    pricingModelId,
    partnerCampaignId: 'ext-1',
    email: 'leads@example.no',
    smsnumber: '+4791234567',
    vmGreetingId,
    notifyOnMissedCall: true,
    notifyOnNewVoicemail: false,
    vmDivertAll: true,
    vmDivertBusy: false,
    vmDivertNoanswer: true,
    ...overrides,
  };
}

/**
 * The cases every CampaignsStore passes, the fake as the real one (the real store's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function campaignsStoreCases(setup: () => Promise<CampaignsStoreFixture>): void {
  let fixture: CampaignsStoreFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  function values(overrides: Partial<CampaignValues> = {}): CampaignValues {
    return campaignValues(fixture.pricingModelIds[0], null, overrides);
  }

  it('inserts an active campaign and finds it for its partner and customer only', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const otherCustomerId = await fixture.newCustomer();
    const campaign = await store.insert(partnerId, customerId, values());
    expect(campaign).toMatchObject({ ...values(), partnerId, customerId, state: '0', expire: null });
    expect(campaign.id).toMatch(/^[1-9]\d*$/);
    expect(await store.findById(partnerId, customerId, campaign.id)).toEqual(campaign);
    expect(await store.findById(otherPartnerId, customerId, campaign.id)).toBeNull();
    expect(await store.findById(partnerId, otherCustomerId, campaign.id)).toBeNull();
  });

  it("lists the customer's campaigns in id order", async () => {
    const { store, partnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const first = await store.insert(partnerId, customerId, values({ name: 'First' }));
    const second = await store.insert(partnerId, customerId, values({ name: 'Second' }));
    await store.insert(partnerId, await fixture.newCustomer(), values({ name: 'Elsewhere' }));
    expect(await store.listForCustomer(partnerId, customerId)).toEqual([first, second]);
    expect(await store.listForCustomer(fixture.otherPartnerId, customerId)).toEqual([]);
  });

  it('updates only the columns given, and answers null for an unknown campaign', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const campaign = await store.insert(partnerId, customerId, values());
    const updated = await store.update(partnerId, customerId, campaign.id, {
      name: 'Closed',
      state: '2',
      expire: CLOSED_AT,
      email: null,
    });
    expect(updated).toMatchObject({
      ...values(),
      name: 'Closed',
      state: '2',
      expire: CLOSED_AT,
      email: null,
    });
    expect(await store.findById(partnerId, customerId, campaign.id)).toEqual(updated);
    expect(await store.update(otherPartnerId, customerId, campaign.id, { name: 'stolen' })).toBeNull();
  });

  it('deletes a campaign for its partner and customer only', async () => {
    const { store, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const campaign = await store.insert(partnerId, customerId, values());
    await store.delete(otherPartnerId, customerId, campaign.id);
    expect(await store.findById(partnerId, customerId, campaign.id)).not.toBeNull();
    await store.delete(partnerId, customerId, campaign.id);
    expect(await store.findById(partnerId, customerId, campaign.id)).toBeNull();
  });

  it('tells which campaigns use which pricing model, in campaign id order', async () => {
    const { store, partnerId, pricingModelIds } = fixture;
    const [one, two] = pricingModelIds;
    const customerId = await fixture.newCustomer();
    const a = await store.insert(partnerId, customerId, values({ name: 'A', pricingModelId: two }));
    const b = await store.insert(partnerId, customerId, values({ name: 'B', pricingModelId: two }));
    const users = await store.campaignsUsing(partnerId, [two]);
    expect([...users.keys()]).toEqual([two]);
    expect(users.get(two)).toEqual([
      { id: a.id, name: 'A' },
      { id: b.id, name: 'B' },
    ]);
    expect((await store.campaignsUsing(partnerId, [one])).get(one)?.every((user) => user.id !== a.id)).toBe(
      true,
    );
    expect(await store.campaignsUsing(fixture.otherPartnerId, [two])).toEqual(new Map());
    expect(await store.campaignsUsing(partnerId, [])).toEqual(new Map());
  });
}
