import type { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import type { TypeormCustomersStore } from '../customers/customers.store';
import type { TypeormGreetingsStore } from '../greetings/greetings.store';

/**
 * The rows a source points at, checked and share-locked inside the source's transaction: a
 * customer, campaign or greeting being deleted at the same moment either waits for the source to
 * commit (and then sees it in use) or is gone first (and the source write is refused).
 */
export interface SourceReferences {
  /** False when the partner has no such customer. */
  lockCustomer(partnerId: string, customerId: string): Promise<boolean>;
  /** The owning customer's id, or null when the partner has no such campaign. */
  lockCampaign(partnerId: string, campaignId: string): Promise<string | null>;
  /** The owning customer's id, or null when the partner has no such greeting. */
  lockGreeting(partnerId: string, greetingId: string): Promise<string | null>;
}

/** The stores whose tables a source points at, built on the source write's EntityManager. */
export interface SourceReferenceOwners {
  customers: Pick<TypeormCustomersStore, 'lockShared'>;
  campaigns: Pick<TypeormCampaignsStore, 'lockOwner'>;
  greetings: Pick<TypeormGreetingsStore, 'lockOwner'>;
}

/**
 * Each lock is taken by the store of the feature that owns the table (customers, campaigns,
 * greetings), on the source write's EntityManager, so inside its transaction.
 */
export class TypeormSourceReferences implements SourceReferences {
  private readonly customers: SourceReferenceOwners['customers'];
  private readonly campaigns: SourceReferenceOwners['campaigns'];
  private readonly greetings: SourceReferenceOwners['greetings'];

  constructor(owners: SourceReferenceOwners) {
    this.customers = owners.customers;
    this.campaigns = owners.campaigns;
    this.greetings = owners.greetings;
  }

  lockCustomer(partnerId: string, customerId: string): Promise<boolean> {
    return this.customers.lockShared(partnerId, customerId);
  }

  lockCampaign(partnerId: string, campaignId: string): Promise<string | null> {
    return this.campaigns.lockOwner(partnerId, campaignId);
  }

  lockGreeting(partnerId: string, greetingId: string): Promise<string | null> {
    return this.greetings.lockOwner(partnerId, greetingId);
  }
}
