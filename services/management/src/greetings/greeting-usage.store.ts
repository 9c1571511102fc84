import type { EntityManager } from 'typeorm';
import type { GreetingUsageReader } from './greeting-usage';
import type { GreetingUsage } from './greeting';

interface UserRow {
  greeting_id: string;
  kind: 'source' | 'campaign';
  id: string;
  name: string;
}

/**
 * Reads `vm_greeting_id` of the sources and campaigns tables. Closed sources count: they keep their
 * reference (and the foreign key keeps the greeting), and calls to a held-back number still play it.
 */
export class TypeormGreetingUsageReader implements GreetingUsageReader {
  constructor(private readonly manager: EntityManager) {}

  async usage(partnerId: string, greetingIds: readonly string[]): Promise<Map<string, GreetingUsage>> {
    const usage = new Map<string, GreetingUsage>();
    if (greetingIds.length === 0) return usage;
    const rows = (await this.manager.query(
      `SELECT vm_greeting_id AS greeting_id, 'source' AS kind, id, name
         FROM sources WHERE partner_id = $1 AND vm_greeting_id = ANY($2::bigint[])
       UNION ALL
       SELECT vm_greeting_id, 'campaign', id, name
         FROM campaigns WHERE partner_id = $1 AND vm_greeting_id = ANY($2::bigint[])
       ORDER BY 1, 2 DESC, 3`,
      [partnerId, greetingIds],
    )) as UserRow[];
    for (const row of rows) {
      const entry = usage.get(row.greeting_id) ?? { sources: [], campaigns: [] };
      (row.kind === 'source' ? entry.sources : entry.campaigns).push({ id: row.id, name: row.name });
      usage.set(row.greeting_id, entry);
    }
    return usage;
  }
}
