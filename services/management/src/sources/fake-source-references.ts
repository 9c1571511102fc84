import type { SourceReferences } from './source-references.store';

/** In-memory SourceReferences for unit tests: which customer owns which campaign and greeting. */
export class FakeSourceReferences implements SourceReferences {
  /** customer id → partner id */
  readonly customers = new Map<string, string>();
  /** campaign id → { partnerId, customerId } */
  readonly campaigns = new Map<string, { partnerId: string; customerId: string }>();
  readonly greetings = new Map<string, { partnerId: string; customerId: string }>();

  async lockCustomer(partnerId: string, customerId: string): Promise<boolean> {
    return this.customers.get(customerId) === partnerId;
  }

  async lockCampaign(partnerId: string, campaignId: string): Promise<string | null> {
    return ownerIn(this.campaigns, partnerId, campaignId);
  }

  async lockGreeting(partnerId: string, greetingId: string): Promise<string | null> {
    return ownerIn(this.greetings, partnerId, greetingId);
  }
}

function ownerIn(
  owners: ReadonlyMap<string, { partnerId: string; customerId: string }>,
  partnerId: string,
  id: string,
): string | null {
  const owner = owners.get(id);
  return owner !== undefined && owner.partnerId === partnerId ? owner.customerId : null;
}
