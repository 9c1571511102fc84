import { compareDecimalIds } from '@trackline/domain';
import type { GreetingUsage, GreetingUser } from './greeting';

/**
 * Which sources and campaigns use a partner's greetings (their `vm_greeting_id`). Sources and
 * campaigns own those tables; this port lets greetings ask without importing their stores.
 */
export interface GreetingUsageReader {
  /** Usage per greeting id; a greeting nobody uses may be missing from the map. */
  usage(partnerId: string, greetingIds: readonly string[]): Promise<Map<string, GreetingUsage>>;
}

/** The users of greetings in one of the tables that refer to them, per greeting id, in id order. */
export interface GreetingUsers {
  (partnerId: string, greetingIds: readonly string[]): Promise<Map<string, GreetingUser[]>>;
}

/** Usage asked of the owners of the sources and campaigns tables (docs/architecture.md, Table ownership). */
export class OwnersGreetingUsage implements GreetingUsageReader {
  constructor(
    private readonly owners: {
      sources: { sourcesUsingGreetings: GreetingUsers };
      campaigns: { campaignsUsingGreetings: GreetingUsers };
    },
  ) {}

  async usage(partnerId: string, greetingIds: readonly string[]): Promise<Map<string, GreetingUsage>> {
    const usage = new Map<string, GreetingUsage>();
    if (greetingIds.length === 0) return usage;
    const sources = await this.owners.sources.sourcesUsingGreetings(partnerId, greetingIds);
    const campaigns = await this.owners.campaigns.campaignsUsingGreetings(partnerId, greetingIds);
    for (const id of [...new Set([...sources.keys(), ...campaigns.keys()])].sort(compareDecimalIds)) {
      usage.set(id, { sources: sources.get(id) ?? [], campaigns: campaigns.get(id) ?? [] });
    }
    return usage;
  }
}
