/**
 * Told after a committed change of anything the replacement service reads from Redis: a partner's
 * settings, its tracking numbers, its sources, a campaign's voicemail settings. Call it after the
 * transaction commits, never inside it, and await it: when it resolves, Redis shows the change (or
 * the failure was logged and the next `projections:rebuild`, which also runs at every start, repairs it).
 * It never rejects, so a Redis outage cannot turn a committed change into an error response.
 * Declared where partner changes are committed; the projections implement it (ProjectionsService),
 * since they read the partners (docs/architecture.md, Floors).
 */
export interface PartnerChangeListener {
  partnerChanged(partnerId: string): Promise<void>;
}
