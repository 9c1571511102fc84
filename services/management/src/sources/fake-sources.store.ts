import { holdBackEnd } from '../numbers/tracking-number';
import type { NewSource, Source, SourceChanges, SourceListQuery, SourcePage } from './source';
import type { SourcesStore } from './sources.store';

/** In-memory SourcesStore for unit tests. */
export class FakeSourcesStore implements SourcesStore {
  private readonly sources: Source[] = [];
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async page(partnerId: string, query: SourceListQuery): Promise<SourcePage> {
    const all = this.sources.filter(
      (source) =>
        source.partnerId === partnerId &&
        (query.customerId === undefined || source.customerId === query.customerId),
    );
    const start = query.page * query.pageSize;
    return { sources: structuredClone(all.slice(start, start + query.pageSize)), total: all.length };
  }

  async findById(partnerId: string, id: string): Promise<Source | null> {
    const source = this.find(partnerId, id);
    return source === undefined ? null : structuredClone(source);
  }

  async insert(partnerId: string, values: NewSource): Promise<Source> {
    const now = this.clock();
    const source: Source = {
      ...structuredClone(values),
      id: String(this.nextId++),
      partnerId,
      status: 'active',
      expire: null,
      closedAt: null,
      created: now,
      modified: now,
    };
    this.sources.push(source);
    return structuredClone(source);
  }

  async update(partnerId: string, id: string, changes: SourceChanges): Promise<Source | null> {
    const source = this.find(partnerId, id);
    if (source === undefined) return null;
    const { customFields, ...columns } = structuredClone(changes);
    Object.assign(source, columns, { modified: this.clock() });
    if (customFields !== undefined) source.customFields = { ...source.customFields, ...customFields };
    return structuredClone(source);
  }

  async close(partnerId: string, id: string, closedAt: Date): Promise<Source | null> {
    const source = this.find(partnerId, id);
    if (source === undefined) return null;
    Object.assign(source, { status: 'closed', closedAt, modified: this.clock() });
    return structuredClone(source);
  }

  async countOpenSources(partnerId: string, customerId: string): Promise<number> {
    return this.sources.filter(
      (source) =>
        source.partnerId === partnerId && source.customerId === customerId && source.status === 'active',
    ).length;
  }

  async answeringNumbersAmong(numbers: readonly string[]): Promise<string[]> {
    const ringing = new Set(
      this.sources
        .filter((source) => source.status === 'active')
        .flatMap((source) => [source.phonenr, ...source.altNumbers.map((rule) => rule.phonenr)]),
    );
    return [...new Set(numbers.filter((number) => ringing.has(number)))].sort();
  }

  async countHeldBackSources(partnerId: string, customerId: string, now: Date): Promise<number> {
    return this.sources.filter(
      (source) =>
        source.partnerId === partnerId &&
        source.customerId === customerId &&
        source.status === 'closed' &&
        source.closedAt !== null &&
        holdBackEnd(source.closedAt) > now,
    ).length;
  }

  private find(partnerId: string, id: string): Source | undefined {
    return this.sources.find((source) => source.partnerId === partnerId && source.id === id);
  }
}
