import { randomUUID } from 'node:crypto';
import type { PricingModel, PricingModelValues } from './pricing-model';
import type { PricingModelColumns, PricingModelsStore } from './pricing-models.store';

/** In-memory PricingModelsStore for unit tests. */
export class FakePricingModelsStore implements PricingModelsStore {
  private readonly models: PricingModel[] = [];

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async list(partnerId: string): Promise<PricingModel[]> {
    return this.models.filter((model) => model.partnerId === partnerId).map(copyOf);
  }

  async findById(partnerId: string, id: string): Promise<PricingModel | null> {
    const model = this.find(partnerId, id);
    return model === undefined ? null : copyOf(model);
  }

  async insert(partnerId: string, values: PricingModelValues): Promise<PricingModel> {
    const now = this.clock();
    const model: PricingModel = {
      ...structuredClone(values),
      id: randomUUID(),
      partnerId,
      created: now,
      modified: now,
    };
    this.models.push(model);
    return copyOf(model);
  }

  async update(partnerId: string, id: string, changes: PricingModelColumns): Promise<PricingModel | null> {
    const model = this.find(partnerId, id);
    if (model === undefined) return null;
    Object.assign(model, structuredClone(changes), { modified: this.clock() });
    return copyOf(model);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    const index = this.models.findIndex((model) => model.partnerId === partnerId && model.id === id);
    if (index >= 0) this.models.splice(index, 1);
  }

  private find(partnerId: string, id: string): PricingModel | undefined {
    return this.models.find((model) => model.partnerId === partnerId && model.id === id);
  }
}

// structuredClone makes its Dates in Node's own realm, which a test's `expect.any(Date)` does not
// recognise; the real store answers Dates of the caller's realm.
function copyOf(model: PricingModel): PricingModel {
  return {
    ...model,
    conditions: structuredClone(model.conditions),
    created: new Date(model.created),
    modified: new Date(model.modified),
  };
}
