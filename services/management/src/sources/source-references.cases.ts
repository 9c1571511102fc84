import type { SourceReferences } from './source-references.store';

/** What a source references case needs: two partners and a way to make the rows a source names. */
export interface SourceReferencesFixture {
  references: SourceReferences;
  partnerId: string;
  otherPartnerId: string;
  newCustomer(): Promise<string>;
  newCampaign(customerId: string): Promise<string>;
  newGreeting(customerId: string): Promise<string>;
}

/**
 * The cases every SourceReferences passes, the fake as the real one (the real one's integration test
 * and the fake's unit test both call this), so the fake cannot drift from the database.
 */
export function sourceReferencesCases(setup: () => Promise<SourceReferencesFixture>): void {
  let fixture: SourceReferencesFixture;

  beforeAll(async () => {
    fixture = await setup();
  });

  it("finds the partner's customer only", async () => {
    const { references, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    expect(await references.lockCustomer(partnerId, customerId)).toBe(true);
    expect(await references.lockCustomer(otherPartnerId, customerId)).toBe(false);
    expect(await references.lockCustomer(partnerId, '999999999')).toBe(false);
  });

  it("answers the owning customer of the partner's campaign, else null", async () => {
    const { references, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const campaignId = await fixture.newCampaign(customerId);
    expect(await references.lockCampaign(partnerId, campaignId)).toBe(customerId);
    expect(await references.lockCampaign(otherPartnerId, campaignId)).toBeNull();
    expect(await references.lockCampaign(partnerId, '999999999')).toBeNull();
  });

  it("answers the owning customer of the partner's greeting, else null", async () => {
    const { references, partnerId, otherPartnerId } = fixture;
    const customerId = await fixture.newCustomer();
    const greetingId = await fixture.newGreeting(customerId);
    expect(await references.lockGreeting(partnerId, greetingId)).toBe(customerId);
    expect(await references.lockGreeting(otherPartnerId, greetingId)).toBeNull();
    expect(await references.lockGreeting(partnerId, '999999999')).toBeNull();
  });
}
