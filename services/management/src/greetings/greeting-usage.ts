import type { GreetingUsage } from './greeting';

/**
 * Which sources and campaigns use a partner's greetings (their `vm_greeting_id`). Sources and
 * campaigns own those tables; this port lets greetings ask without importing their stores.
 */
export interface GreetingUsageReader {
  /** Usage per greeting id; a greeting nobody uses may be missing from the map. */
  usage(partnerId: string, greetingIds: readonly string[]): Promise<Map<string, GreetingUsage>>;
}
