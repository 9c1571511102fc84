import type { NumbersStore } from './numbers.store';
import type { PoolBindingsReader } from './pool-bindings.reader';

export interface PoolUsage {
  /** The partner's pool numbers (E.164), in number order. */
  numbers: string[];
  size: number;
  /** Pool numbers with a live binding. */
  bound: number;
}

/** GET /number_pools: the inventory from Postgres, the use from the replacement service's Redis state. */
export class NumberPoolsService {
  constructor(
    private readonly numbers: Pick<NumbersStore, 'poolNumbers'>,
    private readonly bindings: PoolBindingsReader,
  ) {}

  async usage(partner: { id: string; name: string }, now: Date): Promise<PoolUsage> {
    const [numbers, bound] = await Promise.all([
      this.numbers.poolNumbers(partner.id),
      this.bindings.boundNumbers(partner.name, now),
    ]);
    // Only numbers still in the inventory count: Redis may briefly hold one the projection has not dropped yet.
    const boundSet = new Set(bound);
    return { numbers, size: numbers.length, bound: numbers.filter((number) => boundSet.has(number)).length };
  }
}
