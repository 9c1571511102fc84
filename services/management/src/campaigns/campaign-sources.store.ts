import type { EntityManager } from 'typeorm';
import type { AttachedSource } from './campaign';
import type { CampaignSources } from './campaign-references';

/**
 * Reads the sources table (owned by the sources feature) for the sources attached to campaigns.
 * Inside a UnitOfWork it reads in the caller's transaction.
 */
export class TypeormCampaignSources implements CampaignSources {
  constructor(private readonly manager: EntityManager) {}

  // Closed sources count too: they keep their campaign_id (their calls' history), and the foreign
  // key would refuse to delete the campaign under them.
  async sourcesAttached(
    partnerId: string,
    campaignIds: readonly string[],
  ): Promise<Map<string, AttachedSource[]>> {
    const attached = new Map<string, AttachedSource[]>();
    if (campaignIds.length === 0) return attached;
    const rows = (await this.manager.query(
      `SELECT id, name, campaign_id FROM sources
        WHERE partner_id = $1 AND campaign_id = ANY($2::bigint[])
        ORDER BY id`,
      [partnerId, [...campaignIds]],
    )) as Array<{ id: string; name: string; campaign_id: string }>;
    for (const row of rows) {
      const list = attached.get(row.campaign_id) ?? [];
      list.push({ id: row.id, name: row.name });
      attached.set(row.campaign_id, list);
    }
    return attached;
  }
}
