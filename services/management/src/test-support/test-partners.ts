import type { EntityManager } from 'typeorm';
import type { PartnerValues } from '../partners/partner';
import { TypeormPartnersStore } from '../partners/partners.store';

/**
 * A partner row as the operator would create it, for tests that need partners to own their data
 * but never authenticate (the digests are placeholders, not derived from a password).
 */
export function testPartnerValues(name: string): PartnerValues {
  return {
    name,
    digestUsername: `${name}-api`,
    ha1Md5: 'a'.repeat(32),
    ha1Sha256: 'b'.repeat(64),
    signingSecret: 'sixteen-chars-ok',
    allowIps: [],
    country: 'NO',
    timeZone: 'Europe/Oslo',
    dni: { sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null },
    showFullAnum: false,
    calls: { ringTimeoutSeconds: null, screenCalls: false },
    cdrRetentionMonths: 24,
    anumMaskAfterDays: null,
  };
}

/** Inserts one partner per name and answers their ids in the same order. */
export async function insertTestPartners(manager: EntityManager, ...names: string[]): Promise<string[]> {
  const store = new TypeormPartnersStore(manager);
  const ids: string[] = [];
  for (const name of names) ids.push((await store.insert(testPartnerValues(name))).id);
  return ids;
}
