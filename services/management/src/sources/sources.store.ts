import type { SourceSpamPolicy } from '@trackline/contracts';
import type { SourceOverrideStore } from './source-override';
import type { AltNumberRule, SpamPolicy, Weekday } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import type { OpenSourcesCounter } from '../customers/open-sources-counter';
import type { AttachedSource } from '../campaigns/campaign';
import type { CampaignSources } from '../campaigns/campaign-references';
import type { GreetingUser } from '../greetings/greeting';
import type { AnsweringNumbers } from '../numbers/answering-numbers';
import type { NumberHoldBacks } from '../numbers/number-hold-backs.store';
import {
  sourceCallIntelligenceSettingsFromJson,
  sourceCallIntelligenceSettingsToJson,
  type SourceCallSettings,
} from '../partners/call-intelligence-settings';
import { SourceEntity, type StoredAltNumber } from './source.entity';
import type {
  NewSource,
  ReportSourceName,
  Source,
  SourceChanges,
  SourceListQuery,
  SourcePage,
} from './source';

export interface SourcesStore extends OpenSourcesCounter, AnsweringNumbers {
  /** One page of the partner's sources in id order, and how many there are in all. */
  page(partnerId: string, query: SourceListQuery): Promise<SourcePage>;
  /** `lock` holds the row until the surrounding transaction ends (use inside a UnitOfWork). */
  findById(partnerId: string, id: string, options?: { lock?: boolean }): Promise<Source | null>;
  insert(partnerId: string, values: NewSource): Promise<Source>;
  /** Keys left out keep their value; custom field values are merged. Null when no such source. */
  update(partnerId: string, id: string, changes: SourceChanges): Promise<Source | null>;
  /** Sets status closed; null when no such source. */
  close(partnerId: string, id: string, closedAt: Date): Promise<Source | null>;
}

/** What other features read of the sources table; the sources feature is its only door. */
export interface SourceReadsForOthers {
  /** Per greeting id, the partner's sources (open and closed) naming it, in source id order. */
  sourcesUsingGreetings(
    partnerId: string,
    greetingIds: readonly string[],
  ): Promise<Map<string, GreetingUser[]>>;
  /** Per tracking number, the id of the open source on it (at most one); numbers without are absent. */
  activeSourceIdsByDestnr(partnerId: string, e164s: readonly string[]): Promise<Map<string, string>>;
  /** The customer's sources (open and closed) by id, for names in the monthly report. */
  sourceNames(partnerId: string, customerId: string): Promise<ReportSourceName[]>;
  /** The projection's candidates: the partner's open sources and those on the given numbers. */
  routeCandidates(partnerId: string, heldBackNumbers: readonly string[]): Promise<SourceRouteCandidate[]>;
}

/** A source's own spam policy (docs/spam.md, Per source): null while the partner's applies. */
export type SourceSpamPolicies = SourceOverrideStore<SourceSpamPolicy | null>;

/** A source's own call settings (docs/telephony.md, Recording answered calls): every field null while the partner's apply. */
export type SourceCallSettingsStore = SourceOverrideStore<SourceCallSettings>;

/**
 * The store's spam policy columns as a source's own setting (source-override.ts), made once by the
 * composition rather than with each store (one is made for every call record's transaction).
 */
export function spamPolicyOverrides(store: TypeormSourcesStore): SourceSpamPolicies {
  return {
    find: async (partnerId, id) => {
      const found = await store.findSpamPolicy(partnerId, id);
      return found === null ? null : { setting: found.spamPolicy };
    },
    replace: (partnerId, id, spamPolicy) => store.setSpamPolicy(partnerId, id, spamPolicy),
  };
}

/** The store's call settings column as a source's own setting (source-override.ts). */
export function callSettingsOverrides(store: TypeormSourcesStore): SourceCallSettingsStore {
  return {
    find: async (partnerId, id) => {
      const found = await store.findCallSettings(partnerId, id);
      return found === null ? null : { setting: found };
    },
    replace: (partnerId, id, settings) => store.setCallSettings(partnerId, id, settings),
  };
}

/** A source as the DNI projection reads it (docs/architecture.md, Table ownership). */
export interface SourceRouteCandidate {
  id: string;
  customerId: string;
  destnr: string;
  phonenr: string;
  status: 'active' | 'closed';
  closedAt: Date | null;
  altNumbers: StoredAltNumber[];
  vmDivertAll: boolean;
  vmDivertBusy: boolean;
  vmDivertNoanswer: boolean;
  vmGreetingId: string | null;
  campaignId: string | null;
  spamPolicy: SourceSpamPolicy | null;
  /** Recording and its announcement, each null where the partner's applies. */
  callSettings: SourceCallSettings;
}

export class TypeormSourcesStore implements SourcesStore, SourceReadsForOthers, CampaignSources {
  constructor(
    private readonly manager: EntityManager,
    /** Which numbers are held back: the numbers feature's answer. */
    private readonly numbers: Pick<NumberHoldBacks, 'heldBackNumbers'>,
  ) {}

  async page(partnerId: string, query: SourceListQuery): Promise<SourcePage> {
    const where = { partnerId, ...(query.customerId === undefined ? {} : { customerId: query.customerId }) };
    const [rows, total] = await this.manager.getRepository(SourceEntity).findAndCount({
      where,
      order: { id: 'ASC' },
      skip: query.page * query.pageSize,
      take: query.pageSize,
    });
    return { sources: rows.map(toSource), total };
  }

  async findById(partnerId: string, id: string, options: { lock?: boolean } = {}): Promise<Source | null> {
    const row = await this.manager.getRepository(SourceEntity).findOne({
      where: { partnerId, id },
      ...(options.lock === true ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row === null ? null : toSource(row);
  }

  async insert(partnerId: string, values: NewSource): Promise<Source> {
    const repository = this.manager.getRepository(SourceEntity);
    const { altNumbers, ...columns } = values;
    const saved = await repository.save(
      repository.create({
        partnerId,
        ...columns,
        status: 'active',
        altNumbers: altNumbers.map(toStoredAltNumber),
      }),
    );
    // Re-read so generated columns (timestamps) come from the database.
    return toSource(await repository.findOneByOrFail({ id: saved.id }));
  }

  async update(partnerId: string, id: string, changes: SourceChanges): Promise<Source | null> {
    const { customFields, altNumbers, ...columns } = changes;
    const set: Record<string, unknown> = { ...columns };
    if (altNumbers !== undefined) set.altNumbers = () => 'CAST(:altNumbers AS jsonb)';
    // Merged in SQL so two concurrent updates of different custom fields both survive.
    if (customFields !== undefined) set.customFields = () => 'custom_fields || CAST(:customFields AS jsonb)';
    const result = await this.manager
      .createQueryBuilder()
      .update(SourceEntity)
      .set(set)
      .setParameter('customFields', JSON.stringify(customFields ?? {}))
      .setParameter('altNumbers', JSON.stringify((altNumbers ?? []).map(toStoredAltNumber)))
      .where('id = :id AND partner_id = :partnerId', { id, partnerId })
      .execute();
    if (result.affected === 0) return null;
    return this.findById(partnerId, id);
  }

  async close(partnerId: string, id: string, closedAt: Date): Promise<Source | null> {
    const result = await this.manager
      .createQueryBuilder()
      .update(SourceEntity)
      .set({ status: 'closed', closedAt })
      .where('id = :id AND partner_id = :partnerId', { id, partnerId })
      .execute();
    if (result.affected === 0) return null;
    return this.findById(partnerId, id);
  }

  async countOpenSources(partnerId: string, customerId: string): Promise<number> {
    return this.manager.getRepository(SourceEntity).countBy({ partnerId, customerId, status: 'active' });
  }

  async answeringNumbersAmong(numbers: readonly string[]): Promise<string[]> {
    if (numbers.length === 0) return [];
    const rows = (await this.manager.query(
      `SELECT DISTINCT "number" FROM (
         SELECT s."phonenr" AS "number" FROM "sources" s
          WHERE s."status" = 'active' AND s."phonenr" = ANY($1::varchar[])
         UNION ALL
         SELECT rule->>'phonenr' FROM "sources" s, jsonb_array_elements(s."alt_numbers") AS rule
          WHERE s."status" = 'active' AND rule->>'phonenr' = ANY($1::varchar[])
       ) AS "answering" ORDER BY "number"`,
      [numbers],
    )) as Array<{ number: string }>;
    return rows.map((row) => row.number);
  }

  async countHeldBackSources(partnerId: string, customerId: string, now: Date): Promise<number> {
    // The numbers feature says which numbers are held back; a partner holds back few at a time.
    const heldBack = await this.numbers.heldBackNumbers(partnerId, now);
    if (heldBack.length === 0) return 0;
    const rows = (await this.manager.query(
      `SELECT count(*)::int AS "count" FROM "sources"
        WHERE "partner_id" = $1 AND "customer_id" = $2 AND "status" = 'closed' AND "destnr" = ANY($3::varchar[])`,
      [partnerId, customerId, heldBack],
    )) as Array<{ count: number }>;
    return rows[0]!.count;
  }

  // Closed sources count too: they keep their campaign_id (their calls' history), and the foreign
  // key would refuse to delete the campaign under them.
  async sourcesAttached(
    partnerId: string,
    campaignIds: readonly string[],
  ): Promise<Map<string, AttachedSource[]>> {
    if (campaignIds.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT id, name, campaign_id AS key FROM sources
        WHERE partner_id = $1 AND campaign_id = ANY($2::bigint[])
        ORDER BY id`,
      [partnerId, [...campaignIds]],
    )) as KeyedNameRow[];
    return groupByKey(rows);
  }

  // Closed sources count: they keep their reference (and the foreign key keeps the greeting), and
  // calls to a held-back number still play it.
  async sourcesUsingGreetings(
    partnerId: string,
    greetingIds: readonly string[],
  ): Promise<Map<string, GreetingUser[]>> {
    if (greetingIds.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT id, name, vm_greeting_id AS key FROM sources
        WHERE partner_id = $1 AND vm_greeting_id = ANY($2::bigint[])
        ORDER BY id`,
      [partnerId, [...greetingIds]],
    )) as KeyedNameRow[];
    return groupByKey(rows);
  }

  async activeSourceIdsByDestnr(partnerId: string, e164s: readonly string[]): Promise<Map<string, string>> {
    if (e164s.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT destnr, id FROM sources WHERE partner_id = $1 AND status = 'active' AND destnr = ANY($2::varchar[])`,
      [partnerId, [...e164s]],
    )) as Array<{ destnr: string; id: string }>;
    return new Map(rows.map((row) => [row.destnr, row.id]));
  }

  async sourceNames(partnerId: string, customerId: string): Promise<ReportSourceName[]> {
    const rows = (await this.manager.query(
      `SELECT "id"::text AS "id", "name", "status" FROM "sources"
        WHERE "partner_id" = $1 AND "customer_id" = $2 ORDER BY "id"`,
      [partnerId, customerId],
    )) as Array<{ id: string; name: string; status: string }>;
    return rows.map((row) => ({ sourceId: row.id, name: row.name, active: row.status === 'active' }));
  }

  async routeCandidates(
    partnerId: string,
    heldBackNumbers: readonly string[],
  ): Promise<SourceRouteCandidate[]> {
    const rows = (await this.manager.query(
      `SELECT id, customer_id, destnr, phonenr, status, closed_at, alt_numbers, vm_divert_all, vm_divert_busy,
              vm_divert_noanswer, vm_greeting_id, campaign_id, spam_policy, spam_threshold, call_intelligence
         FROM sources
        WHERE partner_id = $1 AND (status = 'active' OR destnr = ANY($2::varchar[]))`,
      [partnerId, [...heldBackNumbers]],
    )) as RouteCandidateRow[];
    return rows.map((row) => ({
      id: row.id,
      customerId: row.customer_id,
      destnr: row.destnr,
      phonenr: row.phonenr,
      status: row.status,
      closedAt: row.closed_at,
      altNumbers: row.alt_numbers,
      vmDivertAll: row.vm_divert_all,
      vmDivertBusy: row.vm_divert_busy,
      vmDivertNoanswer: row.vm_divert_noanswer,
      vmGreetingId: row.vm_greeting_id,
      campaignId: row.campaign_id,
      spamPolicy: toSpamPolicy(row),
      callSettings: sourceCallIntelligenceSettingsFromJson(row.call_intelligence),
    }));
  }

  /** Null when the partner has no such source; `spamPolicy` null when the partner's applies. */
  async findSpamPolicy(
    partnerId: string,
    id: string,
  ): Promise<{ spamPolicy: SourceSpamPolicy | null } | null> {
    const row = await this.manager.getRepository(SourceEntity).findOne({
      select: { id: true, spamPolicy: true, spamThreshold: true },
      where: { partnerId, id },
    });
    return row === null
      ? null
      : { spamPolicy: toSpamPolicy({ spam_policy: row.spamPolicy, spam_threshold: row.spamThreshold }) };
  }

  /** Null sets the source back to the partner's policy. False when the partner has no such source. */
  async setSpamPolicy(partnerId: string, id: string, spamPolicy: SourceSpamPolicy | null): Promise<boolean> {
    const result = await this.manager
      .getRepository(SourceEntity)
      .update(
        { partnerId, id },
        { spamPolicy: spamPolicy?.policy ?? null, spamThreshold: spamPolicy?.threshold ?? null },
      );
    return (result.affected ?? 0) > 0;
  }

  /** Null when the partner has no such source; every field null when the partner's apply. */
  async findCallSettings(partnerId: string, id: string): Promise<SourceCallSettings | null> {
    const row = await this.manager.getRepository(SourceEntity).findOne({
      select: { id: true, callIntelligence: true },
      where: { partnerId, id },
    });
    return row === null ? null : sourceCallIntelligenceSettingsFromJson(row.callIntelligence);
  }

  /** False when the partner has no such source. */
  async setCallSettings(partnerId: string, id: string, settings: SourceCallSettings): Promise<boolean> {
    // Null when nothing is overridden, so the column says "the partner's" plainly.
    const json = sourceCallIntelligenceSettingsToJson(settings);
    const result = await this.manager
      .createQueryBuilder()
      .update(SourceEntity)
      .set({ callIntelligence: () => 'CAST(:json AS jsonb)' })
      .setParameter('json', json === null ? null : JSON.stringify(json))
      .where('id = :id AND partner_id = :partnerId', { id, partnerId })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}

function toSpamPolicy(
  row: Pick<RouteCandidateRow, 'spam_policy' | 'spam_threshold'>,
): SourceSpamPolicy | null {
  return row.spam_policy === null ? null : { policy: row.spam_policy, threshold: row.spam_threshold };
}

interface KeyedNameRow {
  id: string;
  name: string;
  key: string;
}

interface RouteCandidateRow {
  id: string;
  customer_id: string;
  destnr: string;
  phonenr: string;
  status: 'active' | 'closed';
  closed_at: Date | null;
  alt_numbers: StoredAltNumber[];
  vm_divert_all: boolean;
  vm_divert_busy: boolean;
  vm_divert_noanswer: boolean;
  vm_greeting_id: string | null;
  campaign_id: string | null;
  spam_policy: SpamPolicy | null;
  spam_threshold: number | null;
  call_intelligence: Record<string, unknown> | null;
}

function groupByKey(rows: readonly KeyedNameRow[]): Map<string, Array<{ id: string; name: string }>> {
  const grouped = new Map<string, Array<{ id: string; name: string }>>();
  for (const row of rows) {
    const list = grouped.get(row.key) ?? [];
    list.push({ id: row.id, name: row.name });
    grouped.set(row.key, list);
  }
  return grouped;
}

export function toStoredAltNumber(rule: AltNumberRule): StoredAltNumber {
  return {
    phonenr: rule.phonenr,
    weekdays: [...rule.weekdays],
    from_minute: rule.fromMinute,
    to_minute: rule.toMinute,
    alt_key: rule.altKey,
  };
}

export function fromStoredAltNumber(rule: StoredAltNumber): AltNumberRule {
  return {
    phonenr: rule.phonenr,
    weekdays: rule.weekdays as Weekday[],
    fromMinute: rule.from_minute,
    toMinute: rule.to_minute,
    altKey: rule.alt_key,
  };
}

function toSource(row: SourceEntity): Source {
  return {
    id: row.id,
    partnerId: row.partnerId,
    customerId: row.customerId,
    name: row.name,
    media: row.media,
    phonenr: row.phonenr,
    destnr: row.destnr,
    campaignId: row.campaignId,
    publisherId: row.publisherId,
    email: row.email,
    smsnumber: row.smsnumber,
    status: row.status,
    sourceClass: row.sourceClass,
    activatedAt: row.activatedAt,
    expire: row.expire,
    closedAt: row.closedAt,
    vmGreetingId: row.vmGreetingId,
    notifyOnMissedCall: row.notifyOnMissedCall,
    notifyOnNewVoicemail: row.notifyOnNewVoicemail,
    vmDivertAll: row.vmDivertAll,
    vmDivertBusy: row.vmDivertBusy,
    vmDivertNoanswer: row.vmDivertNoanswer,
    altNumbers: row.altNumbers.map(fromStoredAltNumber),
    customFields: row.customFields,
    created: row.created,
    modified: row.modified,
  };
}
