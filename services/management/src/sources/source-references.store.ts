import type { EntityManager } from 'typeorm';

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

export class TypeormSourceReferences implements SourceReferences {
  constructor(private readonly manager: EntityManager) {}

  async lockCustomer(partnerId: string, customerId: string): Promise<boolean> {
    const rows = (await this.manager.query(
      `SELECT id FROM customers WHERE partner_id = $1 AND id = $2 FOR SHARE`,
      [partnerId, customerId],
    )) as unknown[];
    return rows.length > 0;
  }

  lockCampaign(partnerId: string, campaignId: string): Promise<string | null> {
    return this.ownerOf('campaigns', partnerId, campaignId);
  }

  lockGreeting(partnerId: string, greetingId: string): Promise<string | null> {
    return this.ownerOf('voicemail_greetings', partnerId, greetingId);
  }

  private async ownerOf(
    table: 'campaigns' | 'voicemail_greetings',
    partnerId: string,
    id: string,
  ): Promise<string | null> {
    const rows = (await this.manager.query(
      `SELECT customer_id FROM ${table} WHERE partner_id = $1 AND id = $2 FOR SHARE`,
      [partnerId, id],
    )) as Array<{ customer_id: string }>;
    return rows[0]?.customer_id ?? null;
  }
}
