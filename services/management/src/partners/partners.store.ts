import { callIntelligenceFromJson, callIntelligenceToJson } from './call-intelligence-settings';
import { ValidationError, type CountryCode, type SpamPolicy } from '@trackline/domain';
import { In, type EntityManager } from 'typeorm';
import { isUniqueViolation, pgFailureOf } from '../db/pg-errors';
import { PartnerCustomFieldEntity, type CustomFieldEntity } from './partner-custom-field.entity';
import { PartnerEntity } from './partner.entity';
import type { Partner, PartnerValues } from './partner';

export interface PartnersStore {
  /** Throws ValidationError naming `name` or `username` when either is taken. */
  insert(values: PartnerValues): Promise<Partner>;
  /** Throws ValidationError naming `username` when it is taken. */
  update(id: string, changes: Partial<PartnerValues>): Promise<Partner>;
  findByName(name: string): Promise<Partner | null>;
  findByUsername(username: string): Promise<Partner | null>;
  findById(id: string): Promise<Partner | null>;
  /** Ordered by id. */
  list(): Promise<Partner[]>;
  /** True when the field was new, false when it was already defined. */
  addCustomField(partnerId: string, entity: CustomFieldEntity, field: string): Promise<boolean>;
}

/** An id no partner has (ids start at 1): the lookup of an unknown username still runs its second query. */
const NO_PARTNER_ID = '0';
const FIELD_OF_CONSTRAINT: Record<string, string> = {
  UQ_partners_name: 'name',
  UQ_partners_digest_username: 'username',
};

/** A partner's advId (the name its Redis keys are built from) by its id. */
export interface PartnerNames {
  nameOf(partnerId: string): Promise<string | null>;
}

/** What other features read of the partners table; the partners feature is its only door. */
export interface PartnerReadsForOthers extends PartnerNames {
  /** Every partner's id, in id order. */
  ids(): Promise<string[]>;
  /** The names (advIds) of the partners asked for; unknown ids are absent. */
  namesByIds(ids: readonly string[]): Promise<Map<string, string>>;
}

export class TypeormPartnersStore implements PartnersStore, PartnerReadsForOthers {
  constructor(private readonly manager: EntityManager) {}

  async ids(): Promise<string[]> {
    const rows = await this.manager
      .getRepository(PartnerEntity)
      .find({ select: { id: true }, order: { id: 'ASC' } });
    return rows.map((row) => row.id);
  }

  async namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.manager
      .getRepository(PartnerEntity)
      .find({ select: { id: true, name: true }, where: { id: In([...ids]) } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async nameOf(partnerId: string): Promise<string | null> {
    const row = await this.manager
      .getRepository(PartnerEntity)
      .findOne({ where: { id: partnerId }, select: { id: true, name: true } });
    return row?.name ?? null;
  }

  async insert(values: PartnerValues): Promise<Partner> {
    const saved = await translateUniqueViolation(() =>
      this.manager.getRepository(PartnerEntity).save(this.manager.create(PartnerEntity, toColumns(values))),
    );
    return toPartner(saved, []);
  }

  async update(id: string, changes: Partial<PartnerValues>): Promise<Partner> {
    const columns = toColumns(changes);
    if (Object.keys(columns).length > 0) {
      await translateUniqueViolation(() => this.manager.getRepository(PartnerEntity).update({ id }, columns));
    }
    const partner = await this.findOne({ id });
    if (partner === null) throw new Error(`partner ${id} vanished during update`);
    return partner;
  }

  findByName(name: string): Promise<Partner | null> {
    return this.findOne({ name });
  }

  /** By id, for the notification worker, which knows partners only by the ids on its rows. */
  findById(id: string): Promise<Partner | null> {
    return this.findOne({ id });
  }

  /**
   * Two queries whether or not the username exists, so an unknown username answers no faster than
   * a known one (docs/architecture.md, Probing by timing).
   */
  async findByUsername(username: string): Promise<Partner | null> {
    const row = await this.manager
      .getRepository(PartnerEntity)
      .findOne({ where: { digestUsername: username } });
    const fields = await this.manager
      .getRepository(PartnerCustomFieldEntity)
      .find({ where: { partnerId: row?.id ?? NO_PARTNER_ID }, order: { id: 'ASC' } });
    return row === null ? null : toPartner(row, fields);
  }

  async list(): Promise<Partner[]> {
    const [rows, fields] = await Promise.all([
      this.manager.getRepository(PartnerEntity).find({ order: { id: 'ASC' } }),
      this.manager.getRepository(PartnerCustomFieldEntity).find({ order: { id: 'ASC' } }),
    ]);
    return rows.map((row) =>
      toPartner(
        row,
        fields.filter((field) => field.partnerId === row.id),
      ),
    );
  }

  async addCustomField(partnerId: string, entity: CustomFieldEntity, field: string): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .insert()
      .into(PartnerCustomFieldEntity)
      .values({ partnerId, entity, field })
      .orIgnore()
      .returning(['id'])
      .execute();
    return result.raw.length > 0;
  }

  /** The partner and its custom fields in one statement: workers read a partner per claim. */
  private async findOne(
    where: { id: string } | { name: string } | { digestUsername: string },
  ): Promise<Partner | null> {
    const { entities, raw } = await this.manager
      .getRepository(PartnerEntity)
      .createQueryBuilder('p')
      .where(where)
      .addSelect(
        `(SELECT coalesce(json_agg(json_build_array(f."entity", f."field") ORDER BY f."id"), '[]')
            FROM "partner_custom_fields" f WHERE f."partner_id" = p."id")`,
        'custom_fields',
      )
      .getRawAndEntities<{ custom_fields: Array<[CustomFieldEntity, string]> }>();
    const row = entities[0];
    if (row === undefined) return null;
    const fields = raw[0]!.custom_fields.map(([entity, field]) => ({ entity, field }));
    return toPartner(row, fields);
  }
}

async function translateUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = pgFailureOf(error)?.constraint;
    const field = constraint === undefined ? undefined : FIELD_OF_CONSTRAINT[constraint];
    if (field !== undefined && isUniqueViolation(error, constraint)) {
      throw new ValidationError(field, 'is already taken by another partner');
    }
    throw error;
  }
}

function toColumns(values: Partial<PartnerValues>): Partial<PartnerEntity> {
  const columns: Partial<PartnerEntity> = {
    name: values.name,
    digestUsername: values.digestUsername,
    ha1Md5: values.ha1Md5,
    ha1Sha256: values.ha1Sha256,
    signingSecret: values.signingSecret,
    allowIps: values.allowIps,
    country: values.country,
    timeZone: values.timeZone,
    dniSessionTtlSeconds: values.dni?.sessionTtlSeconds,
    dniHoldBackSeconds: values.dni?.holdBackSeconds,
    dniOnExhausted: values.dni?.onExhausted,
    dniFallbackNumber: values.dni?.fallbackNumber,
    showFullAnum: values.showFullAnum,
    ringTimeoutSeconds: values.calls?.ringTimeoutSeconds,
    screenCalls: values.calls?.screenCalls,
    cdrRetentionMonths: values.cdrRetentionMonths,
    anumMaskAfterDays: values.anumMaskAfterDays,
    rateLimitPerMinute: values.rateLimitPerMinute,
    targetOverflow: values.pool === undefined ? undefined : String(values.pool.targetOverflow),
    poolExhaustedShare: values.pool === undefined ? undefined : String(values.pool.exhaustedShare),
    spamPolicy: values.spam?.policy,
    spamThreshold: values.spam?.threshold,
    callIntelligence:
      values.intelligence === undefined ? undefined : callIntelligenceToJson(values.intelligence),
    contactEmail: values.contactEmail,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

function toPartner(
  row: PartnerEntity,
  fields: Array<Pick<PartnerCustomFieldEntity, 'entity' | 'field'>>,
): Partner {
  return {
    id: row.id,
    name: row.name,
    digestUsername: row.digestUsername,
    ha1Md5: row.ha1Md5,
    ha1Sha256: row.ha1Sha256,
    signingSecret: row.signingSecret,
    allowIps: row.allowIps,
    // Only the service writes this column, after checking it is a country the phone library knows.
    country: row.country as CountryCode,
    timeZone: row.timeZone,
    dni: {
      sessionTtlSeconds: row.dniSessionTtlSeconds,
      holdBackSeconds: row.dniHoldBackSeconds,
      onExhausted: row.dniOnExhausted,
      fallbackNumber: row.dniFallbackNumber,
    },
    showFullAnum: row.showFullAnum,
    calls: { ringTimeoutSeconds: row.ringTimeoutSeconds, screenCalls: row.screenCalls },
    cdrRetentionMonths: row.cdrRetentionMonths,
    anumMaskAfterDays: row.anumMaskAfterDays,
    rateLimitPerMinute: row.rateLimitPerMinute ?? null,
    pool: { targetOverflow: Number(row.targetOverflow), exhaustedShare: Number(row.poolExhaustedShare) },
    // Only the service writes the policy, after checking it is one of the domain's.
    spam: { policy: row.spamPolicy as SpamPolicy, threshold: row.spamThreshold },
    intelligence: callIntelligenceFromJson(row.callIntelligence),
    contactEmail: row.contactEmail ?? null,
    customFields: {
      customer: fields.filter((field) => field.entity === 'customer').map((field) => field.field),
      source: fields.filter((field) => field.entity === 'source').map((field) => field.field),
    },
    created: row.created,
    modified: row.modified,
  };
}
