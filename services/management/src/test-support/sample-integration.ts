import type { StoredIntegration } from '../integrations/integration';

/** One stored GA4 integration of partner '1' (the sample record's), for tests that plan conversions. */
export const SAMPLE_GA4: StoredIntegration = {
  id: '3',
  kind: 'ga4',
  paused: false,
  measurementId: 'G-TEST',
  secrets: { apiSecret: 'secret' },
  modified: new Date('2026-11-01T00:00:00Z'),
};
