import { ValidationError } from '@trackline/domain';
import type { CustomFieldEntity } from './partner-custom-field.entity';
import { DEFAULT_POOL_SIZING, DEFAULT_SPAM_SETTINGS, type Partner, type PartnerValues } from './partner';
import type { PartnersStore } from './partners.store';
import { DEFAULT_CALL_INTELLIGENCE } from './call-intelligence-settings';

/** In-memory PartnersStore for unit tests; enforces the same uniqueness as the database. */
export class FakePartnersStore implements PartnersStore {
  private readonly partners: Partner[] = [];
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async insert(values: PartnerValues): Promise<Partner> {
    this.assertUnique(values, undefined);
    const now = this.clock();
    const partner: Partner = {
      ...structuredClone(values),
      calls: structuredClone(values.calls) ?? { ringTimeoutSeconds: null, screenCalls: false },
      rateLimitPerMinute: values.rateLimitPerMinute ?? null,
      contactEmail: values.contactEmail ?? null,
      pool: structuredClone(values.pool) ?? { ...DEFAULT_POOL_SIZING },
      spam: structuredClone(values.spam) ?? { ...DEFAULT_SPAM_SETTINGS },
      intelligence: structuredClone(values.intelligence) ?? { ...DEFAULT_CALL_INTELLIGENCE },
      id: String(this.nextId++),
      customFields: { customer: [], source: [] },
      created: now,
      modified: now,
    };
    this.partners.push(partner);
    return structuredClone(partner);
  }

  async update(id: string, changes: Partial<PartnerValues>): Promise<Partner> {
    const partner = this.partners.find((candidate) => candidate.id === id);
    if (partner === undefined) throw new Error(`partner ${id} vanished during update`);
    this.assertUnique(changes, id);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    Object.assign(partner, structuredClone(defined), { modified: this.clock() });
    return structuredClone(partner);
  }

  async findByName(name: string): Promise<Partner | null> {
    return this.copyOf(this.partners.find((partner) => partner.name === name));
  }

  async findById(id: string): Promise<Partner | null> {
    return this.copyOf(this.partners.find((partner) => partner.id === id));
  }

  async findByUsername(username: string): Promise<Partner | null> {
    return this.copyOf(this.partners.find((partner) => partner.digestUsername === username));
  }

  async list(): Promise<Partner[]> {
    return structuredClone(this.partners);
  }

  async addCustomField(partnerId: string, entity: CustomFieldEntity, field: string): Promise<boolean> {
    const partner = this.partners.find((candidate) => candidate.id === partnerId);
    if (partner === undefined) throw new Error(`partner ${partnerId} does not exist`);
    if (partner.customFields[entity].includes(field)) return false;
    partner.customFields[entity].push(field);
    return true;
  }

  private assertUnique(values: Partial<PartnerValues>, ownId: string | undefined): void {
    const others = this.partners.filter((partner) => partner.id !== ownId);
    if (values.name !== undefined && others.some((partner) => partner.name === values.name)) {
      throw new ValidationError('name', 'is already taken by another partner');
    }
    if (
      values.digestUsername !== undefined &&
      others.some((partner) => partner.digestUsername === values.digestUsername)
    ) {
      throw new ValidationError('username', 'is already taken by another partner');
    }
  }

  private copyOf(partner: Partner | undefined): Partner | null {
    return partner === undefined ? null : structuredClone(partner);
  }
}
