import { NotFoundError, ValidationError } from '@trackline/domain';
import { In, type EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../db/pg-errors';
import type { GreetingUser } from '../greetings/greeting';
import type { PricingModelUser } from '../pricing-models/pricing-model';
import type { PricingModelUsers } from '../pricing-models/pricing-model-users';
import { CampaignEntity } from './campaign.entity';
import type { Campaign, CampaignColumns, CampaignState, CampaignValues } from './campaign';

export interface CampaignsStore {
  /** The customer's campaigns, ordered by id. */
  listForCustomer(partnerId: string, customerId: string): Promise<Campaign[]>;
  /** `lock` holds the row until the surrounding transaction ends (use inside a UnitOfWork). */
  findById(
    partnerId: string,
    customerId: string,
    id: string,
    options?: { lock?: boolean },
  ): Promise<Campaign | null>;
  /**
   * Throws ValidationError naming `pricing_model_id` / `vm_greeting_id`, or NotFoundError for the
   * customer, when a referenced row vanished between the service's check and the insert.
   */
  insert(partnerId: string, customerId: string, values: CampaignValues): Promise<Campaign>;
  /** Keys left out keep their value. Null when no such campaign. */
  update(
    partnerId: string,
    customerId: string,
    id: string,
    columns: CampaignColumns,
  ): Promise<Campaign | null>;
  delete(partnerId: string, customerId: string, id: string): Promise<void>;
}

export const PRICING_MODEL_REFERENCE_RULE = 'must name one of your pricing models';
export const GREETING_REFERENCE_RULE = 'must name a voicemail greeting of this customer';

/** What other features read of the campaigns table; the campaigns feature is its only door. */
export interface CampaignReadsForOthers {
  /** Per greeting id, the partner's campaigns naming it, in campaign id order. */
  campaignsUsingGreetings(
    partnerId: string,
    greetingIds: readonly string[],
  ): Promise<Map<string, GreetingUser[]>>;
  /** The voicemail settings of the partner's campaigns asked for that are not closed. */
  openCampaignVoicemail(
    partnerId: string,
    campaignIds: readonly string[],
  ): Promise<Map<string, CampaignVoicemailRow>>;
  /**
   * The owning customer's id, or null when the partner has no such campaign; share-locks the row
   * until the transaction ends, so a concurrent delete waits for the referring write.
   */
  lockOwner(partnerId: string, campaignId: string): Promise<string | null>;
}

export interface CampaignVoicemailRow {
  vmDivertAll: boolean;
  vmDivertBusy: boolean;
  vmDivertNoanswer: boolean;
  vmGreetingId: string | null;
}

/** Also answers, for the pricing models feature, which campaigns use which model. */
export class TypeormCampaignsStore implements CampaignsStore, PricingModelUsers, CampaignReadsForOthers {
  constructor(private readonly manager: EntityManager) {}

  async campaignsUsingGreetings(
    partnerId: string,
    greetingIds: readonly string[],
  ): Promise<Map<string, GreetingUser[]>> {
    const users = new Map<string, GreetingUser[]>();
    if (greetingIds.length === 0) return users;
    const rows = (await this.manager.query(
      `SELECT id, name, vm_greeting_id FROM campaigns
        WHERE partner_id = $1 AND vm_greeting_id = ANY($2::bigint[])
        ORDER BY id`,
      [partnerId, [...greetingIds]],
    )) as Array<{ id: string; name: string; vm_greeting_id: string }>;
    for (const row of rows) {
      const list = users.get(row.vm_greeting_id) ?? [];
      list.push({ id: row.id, name: row.name });
      users.set(row.vm_greeting_id, list);
    }
    return users;
  }

  // A closed campaign's settings no longer apply to its sources (state '2').
  async openCampaignVoicemail(
    partnerId: string,
    campaignIds: readonly string[],
  ): Promise<Map<string, CampaignVoicemailRow>> {
    if (campaignIds.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT id, vm_divert_all, vm_divert_busy, vm_divert_noanswer, vm_greeting_id FROM campaigns
        WHERE partner_id = $1 AND id = ANY($2::bigint[]) AND state <> '2'`,
      [partnerId, [...campaignIds]],
    )) as Array<{
      id: string;
      vm_divert_all: boolean;
      vm_divert_busy: boolean;
      vm_divert_noanswer: boolean;
      vm_greeting_id: string | null;
    }>;
    return new Map(
      rows.map((row) => [
        row.id,
        {
          vmDivertAll: row.vm_divert_all,
          vmDivertBusy: row.vm_divert_busy,
          vmDivertNoanswer: row.vm_divert_noanswer,
          vmGreetingId: row.vm_greeting_id,
        },
      ]),
    );
  }

  async lockOwner(partnerId: string, campaignId: string): Promise<string | null> {
    const rows = (await this.manager.query(
      `SELECT customer_id FROM campaigns WHERE partner_id = $1 AND id = $2 FOR SHARE`,
      [partnerId, campaignId],
    )) as Array<{ customer_id: string }>;
    return rows[0]?.customer_id ?? null;
  }

  async listForCustomer(partnerId: string, customerId: string): Promise<Campaign[]> {
    const rows = await this.manager.getRepository(CampaignEntity).find({
      where: { partnerId, customerId },
      order: { id: 'ASC' },
    });
    return rows.map(toCampaign);
  }

  async findById(
    partnerId: string,
    customerId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<Campaign | null> {
    const row = await this.manager.getRepository(CampaignEntity).findOne({
      where: { partnerId, customerId, id },
      ...(options.lock === true ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row === null ? null : toCampaign(row);
  }

  async insert(partnerId: string, customerId: string, values: CampaignValues): Promise<Campaign> {
    const repository = this.manager.getRepository(CampaignEntity);
    const saved = await translateReferenceErrors(customerId, () =>
      repository.save(repository.create({ partnerId, customerId, ...values, state: '0', expire: null })),
    );
    // Re-read so the generated id and timestamps come from the database.
    return toCampaign(await repository.findOneByOrFail({ id: saved.id }));
  }

  async update(
    partnerId: string,
    customerId: string,
    id: string,
    columns: CampaignColumns,
  ): Promise<Campaign | null> {
    const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length === 0) return this.findById(partnerId, customerId, id);
    const result = await translateReferenceErrors(customerId, () =>
      this.manager
        .createQueryBuilder()
        .update(CampaignEntity)
        .set(set)
        .where('id = :id AND partner_id = :partnerId AND customer_id = :customerId', {
          id,
          partnerId,
          customerId,
        })
        .execute(),
    );
    if (result.affected === 0) return null;
    return this.findById(partnerId, customerId, id);
  }

  async delete(partnerId: string, customerId: string, id: string): Promise<void> {
    await this.manager.getRepository(CampaignEntity).delete({ partnerId, customerId, id });
  }

  async campaignsUsing(
    partnerId: string,
    pricingModelIds: readonly string[],
  ): Promise<Map<string, PricingModelUser[]>> {
    const users = new Map<string, PricingModelUser[]>();
    if (pricingModelIds.length === 0) return users;
    const rows = await this.manager.getRepository(CampaignEntity).find({
      select: { id: true, name: true, pricingModelId: true },
      where: { partnerId, pricingModelId: In([...pricingModelIds]) },
      order: { id: 'ASC' },
    });
    for (const row of rows) {
      const list = users.get(row.pricingModelId) ?? [];
      list.push({ id: row.id, name: row.name });
      users.set(row.pricingModelId, list);
    }
    return users;
  }
}

// The service checks every reference first; these cover a row deleted between that check and
// this write, so the client still gets the answer the check would have given.
async function translateReferenceErrors<T>(customerId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error, 'FK_campaigns_pricing_model'))
      throw new ValidationError('pricing_model_id', PRICING_MODEL_REFERENCE_RULE);
    if (isForeignKeyViolation(error, 'FK_campaigns_vm_greeting'))
      throw new ValidationError('vm_greeting_id', GREETING_REFERENCE_RULE);
    if (isForeignKeyViolation(error, 'FK_campaigns_customer'))
      throw new NotFoundError(`customer ${customerId}`);
    throw error;
  }
}

function toCampaign(row: CampaignEntity): Campaign {
  return {
    id: row.id,
    partnerId: row.partnerId,
    customerId: row.customerId,
    pricingModelId: row.pricingModelId,
    name: row.name,
    partnerCampaignId: row.partnerCampaignId,
    email: row.email,
    smsnumber: row.smsnumber,
    vmGreetingId: row.vmGreetingId,
    notifyOnMissedCall: row.notifyOnMissedCall,
    notifyOnNewVoicemail: row.notifyOnNewVoicemail,
    vmDivertAll: row.vmDivertAll,
    vmDivertBusy: row.vmDivertBusy,
    vmDivertNoanswer: row.vmDivertNoanswer,
    state: row.state as CampaignState,
    created: row.created,
    expire: row.expire,
    modified: row.modified,
  };
}
