import { ForbiddenError, NotFoundError, ValidationError } from '@trackline/domain';
import type { CustomersStore } from '../customers/customers.store';
import type { UnitOfWork } from '../db/unit-of-work';
import type { PricingModelsStore } from '../pricing-models/pricing-models.store';
import type { PartnerChangeListener } from '../partners/partner-change-listener';
import {
  CAMPAIGN_STATE_CLOSED,
  type Campaign,
  type CampaignChanges,
  type CampaignColumns,
  type CampaignValues,
  type CampaignView,
} from './campaign';
import type { CampaignSources, CustomerGreetings } from './campaign-references';
import {
  GREETING_REFERENCE_RULE,
  PRICING_MODEL_REFERENCE_RULE,
  type CampaignsStore,
} from './campaigns.store';
import { isBigintId, isUuid } from '../validation/record-id';

/** What deleting a campaign touches inside one transaction. */
export interface CampaignDeletionStores {
  campaigns: CampaignsStore;
  sources: CampaignSources;
}

export interface CampaignsServiceDependencies {
  campaigns: CampaignsStore;
  customers: CustomersStore;
  pricingModels: PricingModelsStore;
  greetings: CustomerGreetings;
  sources: CampaignSources;
  deletion: UnitOfWork<CampaignDeletionStores>;
  /**
   * Told after a committed update: the campaign's voicemail settings and state reach its sources'
   * routes in Redis. Create and delete need not: a new campaign has no sources, and one with
   * sources cannot be deleted.
   */
  listeners?: readonly PartnerChangeListener[];
}

// Numeric ids are bigint identities and pricing model ids UUIDs; a value of another shape cannot
// name a row, so it is "not found" in a path and a broken reference in a body.

export class CampaignsService {
  constructor(private readonly deps: CampaignsServiceDependencies) {}

  async list(partnerId: string, customerId: string): Promise<CampaignView[]> {
    const customer = await this.requireCustomer(partnerId, customerId);
    return this.withSources(partnerId, await this.deps.campaigns.listForCustomer(partnerId, customer));
  }

  async get(partnerId: string, customerId: string, campaignId: string): Promise<CampaignView> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const campaign = await this.deps.campaigns.findById(partnerId, customer, requireCampaignId(campaignId));
    if (campaign === null) throw notFound(campaignId);
    const [view] = await this.withSources(partnerId, [campaign]);
    return view!;
  }

  async create(partnerId: string, customerId: string, values: CampaignValues): Promise<CampaignView> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const pricingModelId = await this.requirePricingModel(partnerId, values.pricingModelId);
    const vmGreetingId = await this.requireGreeting(partnerId, customer, values.vmGreetingId);
    const campaign = await this.deps.campaigns.insert(partnerId, customer, {
      ...values,
      pricingModelId,
      vmGreetingId,
    });
    // A new campaign has no sources yet; they attach themselves later (POST /sources campaign_id).
    return { campaign, sources: [] };
  }

  /** `now` dates `expire` when the campaign is closed; re-opening clears it. */
  async update(
    partnerId: string,
    customerId: string,
    campaignId: string,
    changes: CampaignChanges,
    now: Date,
  ): Promise<CampaignView> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const id = requireCampaignId(campaignId);
    const current = await this.deps.campaigns.findById(partnerId, customer, id);
    if (current === null) throw notFound(campaignId);
    const columns: CampaignColumns = { ...changes };
    if (changes.pricingModelId !== undefined)
      columns.pricingModelId = await this.requirePricingModel(partnerId, changes.pricingModelId);
    if (changes.vmGreetingId !== undefined)
      columns.vmGreetingId = await this.requireGreeting(partnerId, customer, changes.vmGreetingId);
    if (changes.state !== undefined && changes.state !== current.state) {
      columns.expire = changes.state === CAMPAIGN_STATE_CLOSED ? now : null;
    }
    const updated = await this.deps.campaigns.update(partnerId, customer, id, columns);
    if (updated === null) throw notFound(campaignId);
    for (const listener of this.deps.listeners ?? []) await listener.partnerChanged(partnerId);
    const [view] = await this.withSources(partnerId, [updated]);
    return view!;
  }

  /** Refused with 403 naming the sources while any is attached; returns the deleted campaign. */
  async delete(partnerId: string, customerId: string, campaignId: string): Promise<CampaignView> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const id = requireCampaignId(campaignId);
    // The row lock makes a concurrent source insert's foreign key check wait for this decision.
    return this.deps.deletion.run(async ({ campaigns, sources }) => {
      const campaign = await campaigns.findById(partnerId, customer, id, { lock: true });
      if (campaign === null) throw notFound(campaignId);
      const attached = (await sources.sourcesAttached(partnerId, [id])).get(id) ?? [];
      if (attached.length > 0) {
        const named = attached.map((source) => `${source.id} (${source.name})`).join(', ');
        throw new ForbiddenError(
          `Campaign ${id} is used by source${attached.length === 1 ? '' : 's'} ${named}; ` +
            'detach or close them first, or close the campaign with state 2',
        );
      }
      await campaigns.delete(partnerId, customer, id);
      return { campaign, sources: [] };
    });
  }

  private async requireCustomer(partnerId: string, customerId: string): Promise<string> {
    if (!isBigintId(customerId)) throw new NotFoundError(`customer ${customerId}`);
    const customer = await this.deps.customers.findById(partnerId, customerId);
    if (customer === null) throw new NotFoundError(`customer ${customerId}`);
    return customer.id;
  }

  private async requirePricingModel(partnerId: string, pricingModelId: string): Promise<string> {
    if (!isUuid(pricingModelId)) throw new ValidationError('pricing_model_id', PRICING_MODEL_REFERENCE_RULE);
    const model = await this.deps.pricingModels.findById(partnerId, pricingModelId.toLowerCase());
    if (model === null) throw new ValidationError('pricing_model_id', PRICING_MODEL_REFERENCE_RULE);
    return model.id;
  }

  private async requireGreeting(
    partnerId: string,
    customerId: string,
    greetingId: string | null,
  ): Promise<string | null> {
    if (greetingId === null) return null;
    const belongs =
      isBigintId(greetingId) &&
      (await this.deps.greetings.greetingBelongsToCustomer(partnerId, customerId, greetingId));
    if (!belongs) throw new ValidationError('vm_greeting_id', GREETING_REFERENCE_RULE);
    return greetingId;
  }

  private async withSources(partnerId: string, campaigns: Campaign[]): Promise<CampaignView[]> {
    if (campaigns.length === 0) return [];
    const attached = await this.deps.sources.sourcesAttached(
      partnerId,
      campaigns.map((campaign) => campaign.id),
    );
    return campaigns.map((campaign) => ({ campaign, sources: attached.get(campaign.id) ?? [] }));
  }
}

function requireCampaignId(value: string): string {
  if (!isBigintId(value)) throw notFound(value);
  return value;
}

function notFound(campaignId: string): NotFoundError {
  return new NotFoundError(`campaign ${campaignId}`);
}
