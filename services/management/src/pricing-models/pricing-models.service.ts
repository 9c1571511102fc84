import { ForbiddenError, mergePricingConditions, NotFoundError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type {
  PricingModel,
  PricingModelChanges,
  PricingModelValues,
  PricingModelView,
} from './pricing-model';
import type { PricingModelUsers } from './pricing-model-users';
import type { PricingModelColumns, PricingModelsStore } from './pricing-models.store';
import { isUuid } from '../validation/record-id';

/** What a PUT or DELETE touches inside one transaction. */
export interface PricingModelWriteStores {
  pricingModels: PricingModelsStore;
  users: PricingModelUsers;
}

// Ids are UUIDs; anything else cannot name a pricing model: "not found" (docs/partner-api.md, Errors).

export class PricingModelsService {
  constructor(
    private readonly pricingModels: PricingModelsStore,
    private readonly users: PricingModelUsers,
    private readonly writes: UnitOfWork<PricingModelWriteStores>,
  ) {}

  async list(partnerId: string): Promise<PricingModelView[]> {
    return withUsers(this.users, partnerId, await this.pricingModels.list(partnerId));
  }

  async get(partnerId: string, pricingModelId: string): Promise<PricingModelView> {
    const model = await this.pricingModels.findById(partnerId, requirePricingModelId(pricingModelId));
    if (model === null) throw notFound(pricingModelId);
    const [view] = await withUsers(this.users, partnerId, [model]);
    return view!;
  }

  async create(partnerId: string, values: PricingModelValues): Promise<PricingModelView> {
    // A new model has no users yet.
    return { model: await this.pricingModels.insert(partnerId, values), usedBy: [] };
  }

  /** Conditions are merged by position into the stored ones, under a row lock so no PUT is lost. */
  update(partnerId: string, pricingModelId: string, changes: PricingModelChanges): Promise<PricingModelView> {
    const id = requirePricingModelId(pricingModelId);
    return this.writes.run(async ({ pricingModels, users }) => {
      const current = await pricingModels.findById(partnerId, id, { lock: true });
      if (current === null) throw notFound(pricingModelId);
      const columns: PricingModelColumns = {};
      if (changes.name !== undefined) columns.name = changes.name;
      if (changes.uniqueCallerSeconds !== undefined)
        columns.uniqueCallerSeconds = changes.uniqueCallerSeconds;
      if (changes.conditionsPatch !== undefined) {
        columns.conditions = mergePricingConditions(current.conditions, changes.conditionsPatch);
      }
      const updated = await pricingModels.update(partnerId, id, columns);
      if (updated === null) throw notFound(pricingModelId);
      const [view] = await withUsers(users, partnerId, [updated]);
      return view!;
    });
  }

  /** Refused with 403 naming the campaigns while any uses the model; returns the deleted model. */
  delete(partnerId: string, pricingModelId: string): Promise<PricingModelView> {
    const id = requirePricingModelId(pricingModelId);
    // The row lock makes a concurrent campaign insert's foreign key check wait for this decision.
    return this.writes.run(async ({ pricingModels, users }) => {
      const model = await pricingModels.findById(partnerId, id, { lock: true });
      if (model === null) throw notFound(pricingModelId);
      const usedBy = (await users.campaignsUsing(partnerId, [id])).get(id) ?? [];
      if (usedBy.length > 0) {
        const named = usedBy.map((campaign) => `${campaign.id} (${campaign.name})`).join(', ');
        throw new ForbiddenError(
          `Pricing model ${model.id} is used by campaign${usedBy.length === 1 ? '' : 's'} ${named}; ` +
            'move them to another pricing model or delete them first',
        );
      }
      await pricingModels.delete(partnerId, id);
      return { model, usedBy: [] };
    });
  }
}

/** The canonical (lower-case) UUID, or a 404 for anything that cannot be one. */
export function requirePricingModelId(value: string): string {
  if (!isUuid(value)) throw notFound(value);
  return value.toLowerCase();
}

async function withUsers(
  users: PricingModelUsers,
  partnerId: string,
  models: PricingModel[],
): Promise<PricingModelView[]> {
  if (models.length === 0) return [];
  const byModel = await users.campaignsUsing(
    partnerId,
    models.map((model) => model.id),
  );
  return models.map((model) => ({ model, usedBy: byModel.get(model.id) ?? [] }));
}

function notFound(pricingModelId: string): NotFoundError {
  return new NotFoundError(`pricing model ${pricingModelId}`);
}
