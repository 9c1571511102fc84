import type { AltNumberRule, Weekday } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import type { OpenSourcesCounter } from '../customers/open-sources-counter';
import type { AnsweringNumbers } from '../numbers/answering-numbers';
import { SourceEntity, type StoredAltNumber } from './source.entity';
import type { NewSource, Source, SourceChanges, SourceListQuery, SourcePage } from './source';

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

export class TypeormSourcesStore implements SourcesStore {
  constructor(private readonly manager: EntityManager) {}

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
    const rows = (await this.manager.query(
      `SELECT count(*)::int AS "count"
         FROM "sources" s JOIN "tracking_numbers" t ON t."e164" = s."destnr" AND t."partner_id" = s."partner_id"
        WHERE s."partner_id" = $1 AND s."customer_id" = $2 AND s."status" = 'closed' AND t."held_until" > $3`,
      [partnerId, customerId, now],
    )) as Array<{ count: number }>;
    return rows[0]!.count;
  }
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
