import type { PricingModelUser } from '../pricing-models/pricing-model';
import type { PricingModelUsers } from '../pricing-models/pricing-model-users';
import type { Campaign, CampaignColumns, CampaignValues } from './campaign';
import type { CampaignsStore } from './campaigns.store';

/** In-memory CampaignsStore (and PricingModelUsers) for unit tests. */
export class FakeCampaignsStore implements CampaignsStore, PricingModelUsers {
  private readonly campaigns: Campaign[] = [];
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async listForCustomer(partnerId: string, customerId: string): Promise<Campaign[]> {
    return structuredClone(
      this.campaigns.filter(
        (campaign) => campaign.partnerId === partnerId && campaign.customerId === customerId,
      ),
    );
  }

  async findById(partnerId: string, customerId: string, id: string): Promise<Campaign | null> {
    const campaign = this.find(partnerId, customerId, id);
    return campaign === undefined ? null : structuredClone(campaign);
  }

  async insert(partnerId: string, customerId: string, values: CampaignValues): Promise<Campaign> {
    const now = this.clock();
    const campaign: Campaign = {
      ...structuredClone(values),
      id: String(this.nextId++),
      partnerId,
      customerId,
      state: '0',
      created: now,
      expire: null,
      modified: now,
    };
    this.campaigns.push(campaign);
    return structuredClone(campaign);
  }

  async update(
    partnerId: string,
    customerId: string,
    id: string,
    columns: CampaignColumns,
  ): Promise<Campaign | null> {
    const campaign = this.find(partnerId, customerId, id);
    if (campaign === undefined) return null;
    const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    Object.assign(campaign, structuredClone(set), { modified: this.clock() });
    return structuredClone(campaign);
  }

  async delete(partnerId: string, customerId: string, id: string): Promise<void> {
    const index = this.campaigns.findIndex(
      (campaign) =>
        campaign.partnerId === partnerId && campaign.customerId === customerId && campaign.id === id,
    );
    if (index >= 0) this.campaigns.splice(index, 1);
  }

  async campaignsUsing(
    partnerId: string,
    pricingModelIds: readonly string[],
  ): Promise<Map<string, PricingModelUser[]>> {
    const users = new Map<string, PricingModelUser[]>();
    for (const campaign of this.campaigns) {
      if (campaign.partnerId !== partnerId || !pricingModelIds.includes(campaign.pricingModelId)) continue;
      users.set(campaign.pricingModelId, [
        ...(users.get(campaign.pricingModelId) ?? []),
        { id: campaign.id, name: campaign.name },
      ]);
    }
    return users;
  }

  private find(partnerId: string, customerId: string, id: string): Campaign | undefined {
    return this.campaigns.find(
      (campaign) =>
        campaign.partnerId === partnerId && campaign.customerId === customerId && campaign.id === id,
    );
  }
}
