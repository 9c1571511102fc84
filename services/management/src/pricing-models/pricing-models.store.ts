import {
  decodeStoredPricingConditions,
  renderPricingCondition,
  type PricingCondition,
} from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { PricingModelEntity, type StoredPricingCondition } from './pricing-model.entity';
import type { PricingModel, PricingModelValues } from './pricing-model';

/** Column changes of an update; conditions arrive already merged. */
export type PricingModelColumns = Partial<
  Pick<PricingModelValues, 'name' | 'uniqueCallerSeconds' | 'conditions'>
>;

export interface PricingModelsStore {
  /** The partner's pricing models, oldest first. */
  list(partnerId: string): Promise<PricingModel[]>;
  /** `lock` holds the row until the surrounding transaction ends (use inside a UnitOfWork). */
  findById(partnerId: string, id: string, options?: { lock?: boolean }): Promise<PricingModel | null>;
  insert(partnerId: string, values: PricingModelValues): Promise<PricingModel>;
  /** Keys left out keep their value. Null when no such pricing model. */
  update(partnerId: string, id: string, changes: PricingModelColumns): Promise<PricingModel | null>;
  delete(partnerId: string, id: string): Promise<void>;
}

export class TypeormPricingModelsStore implements PricingModelsStore {
  constructor(private readonly manager: EntityManager) {}

  async list(partnerId: string): Promise<PricingModel[]> {
    const rows = await this.manager.getRepository(PricingModelEntity).find({
      where: { partnerId },
      // UUIDs carry no order; the id only breaks ties between models created in one instant.
      order: { created: 'ASC', id: 'ASC' },
    });
    return rows.map(toPricingModel);
  }

  async findById(
    partnerId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<PricingModel | null> {
    const row = await this.manager.getRepository(PricingModelEntity).findOne({
      where: { partnerId, id },
      ...(options.lock === true ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row === null ? null : toPricingModel(row);
  }

  async insert(partnerId: string, values: PricingModelValues): Promise<PricingModel> {
    const repository = this.manager.getRepository(PricingModelEntity);
    const saved = await repository.save(
      repository.create({
        partnerId,
        name: values.name,
        type: values.type,
        uniqueCallerTime: values.uniqueCallerSeconds.toString(),
        conditions: toStoredConditions(values.conditions),
      }),
    );
    // Re-read so the generated id and timestamps come from the database.
    return toPricingModel(await repository.findOneByOrFail({ id: saved.id }));
  }

  async update(partnerId: string, id: string, changes: PricingModelColumns): Promise<PricingModel | null> {
    const set: Partial<Omit<PricingModelEntity, 'conditions'>> & { conditions?: () => string } = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.uniqueCallerSeconds !== undefined)
      set.uniqueCallerTime = changes.uniqueCallerSeconds.toString();
    // A jsonb array must go in as one JSON parameter; TypeORM would otherwise spread it.
    if (changes.conditions !== undefined) set.conditions = () => 'CAST(:conditions AS jsonb)';
    const result = await this.manager
      .createQueryBuilder()
      .update(PricingModelEntity)
      .set(set)
      .setParameter('conditions', JSON.stringify(toStoredConditions(changes.conditions ?? [])))
      .where('id = :id AND partner_id = :partnerId', { id, partnerId })
      .execute();
    if (result.affected === 0) return null;
    return this.findById(partnerId, id);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    await this.manager.getRepository(PricingModelEntity).delete({ partnerId, id });
  }
}

export function toStoredConditions(conditions: readonly PricingCondition[]): StoredPricingCondition[] {
  return conditions.map(renderPricingCondition);
}

function toPricingModel(row: PricingModelEntity): PricingModel {
  return {
    id: row.id,
    partnerId: row.partnerId,
    name: row.name,
    type: '0',
    uniqueCallerSeconds: Number(row.uniqueCallerTime),
    // Decoded, not re-validated: a value accepted under an earlier input rule still reads.
    conditions: decodeStoredPricingConditions(row.conditions),
    created: row.created,
    modified: row.modified,
  };
}
