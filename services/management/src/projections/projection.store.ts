import type { PartnerConfig, PartnerProjection } from '@trackline/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import type { NumberHoldBacks } from '../numbers/number-hold-backs.store';
import type { TypeormNumbersStore } from '../numbers/numbers.store';
import { sessionTimingInForce, type SessionTiming } from '../numbers/pool-settings';
import type { PoolSettingsStore } from '../numbers/pool-settings.store';
import type { Partner } from '../partners/partner';
import type { TypeormPartnersStore } from '../partners/partners.store';
import type { TypeormSourcesStore } from '../sources/sources.store';
import type { TypeormSpamListsStore } from '../spam/spam-lists.store';
import { projectSourceRoutes, type SourceRouteRow } from './source-route-rows';

export interface PartnerProjectionReader {
  /** What Redis must hold for the partner at `now`, read from committed data; null when no such partner. */
  load(partnerId: string, now: Date): Promise<PartnerProjection | null>;
}

export interface ProjectionStore {
  /** Every partner, by id. */
  partnerIds(): Promise<string[]>;
  /**
   * Runs `work` holding the partner's projection lock, shared by every management process. Writers
   * of one partner take turns and each reads after the previous one finished, so whatever order
   * they run in, the last write to Redis carries every commit made before it started.
   */
  withPartnerLock<T>(partnerId: string, work: (reader: PartnerProjectionReader) => Promise<T>): Promise<T>;
}

/** The stores of the features that own what a projection reads, on one EntityManager. */
export interface ProjectionSourceStores {
  partners: Pick<TypeormPartnersStore, 'findById' | 'ids'>;
  numbers: Pick<TypeormNumbersStore, 'poolNumbers'>;
  numberHoldBacks: Pick<NumberHoldBacks, 'holdBacks'>;
  poolSettings: Pick<PoolSettingsStore, 'find'>;
  sources: Pick<TypeormSourcesStore, 'routeCandidates'>;
  campaigns: Pick<TypeormCampaignsStore, 'openCampaignVoicemail'>;
  spamLists: Pick<TypeormSpamListsStore, 'all'>;
}

/**
 * Reads each table through the store of the feature that owns it (partners, numbers, sources,
 * campaigns), on the lock's transaction.
 */
export class TypeormProjectionStore implements ProjectionStore {
  constructor(
    private readonly dataSource: DataSource,
    /** The owners' stores on a manager (the composition root builds them). */
    private readonly storesOn: (manager: EntityManager) => ProjectionSourceStores,
  ) {}

  partnerIds(): Promise<string[]> {
    return this.storesOn(this.dataSource.manager).partners.ids();
  }

  withPartnerLock<T>(partnerId: string, work: (reader: PartnerProjectionReader) => Promise<T>): Promise<T> {
    // READ COMMITTED: every query after the lock sees what was committed before it ran.
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `trackline.projection:${partnerId}`,
      ]);
      return work(new OwnersProjectionReader(this.storesOn(manager)));
    });
  }
}

class OwnersProjectionReader implements PartnerProjectionReader {
  constructor(private readonly stores: ProjectionSourceStores) {}

  async load(partnerId: string, now: Date): Promise<PartnerProjection | null> {
    const partner = await this.stores.partners.findById(partnerId);
    if (partner === null) return null;
    const pool = await this.stores.numbers.poolNumbers(partnerId);
    const holdBacks = await this.stores.numberHoldBacks.holdBacks(partnerId);
    // Candidates only: open sources, and closed ones whose number is still held back; the choice per
    // number is projectSourceRoutes'. A source on a number no longer in the inventory routes nowhere.
    const heldBack = [...holdBacks]
      .filter(([, until]) => until !== null && until > now)
      .map(([e164]) => e164);
    const candidates = (await this.stores.sources.routeCandidates(partnerId, heldBack)).filter((source) =>
      holdBacks.has(source.destnr),
    );
    // A closed campaign's settings no longer apply to its sources.
    const campaigns = await this.stores.campaigns.openCampaignVoicemail(partnerId, [
      ...new Set(candidates.flatMap((source) => (source.campaignId === null ? [] : [source.campaignId]))),
    ]);
    const rows = candidates.map((source): SourceRouteRow => ({
      id: source.id,
      customerId: source.customerId,
      destnr: source.destnr,
      phonenr: source.phonenr,
      status: source.status,
      closedAt: source.closedAt,
      heldUntil: holdBacks.get(source.destnr) ?? null,
      altNumbers: source.altNumbers,
      vmDivertAll: source.vmDivertAll,
      vmDivertBusy: source.vmDivertBusy,
      vmDivertNoanswer: source.vmDivertNoanswer,
      vmGreetingId: source.vmGreetingId,
      spamPolicy: source.spamPolicy,
      callSettings: source.callSettings,
      campaign: (source.campaignId === null ? undefined : campaigns.get(source.campaignId)) ?? null,
    }));
    const sources = projectSourceRoutes(rows, now);
    const held = new Set([...pool, ...sources.map((source) => source.destnr)]);
    const timing = sessionTimingInForce(partner, await this.stores.poolSettings.find(partnerId));
    return {
      config: toPartnerConfig(partner, timing),
      poolNumbers: pool,
      sources,
      // Every number of the inventory is another's number on no page: the static ones no source holds too.
      freeStaticNumbers: [...holdBacks.keys()].filter((e164) => !held.has(e164)).sort(),
      // A rebuild after Redis lost data restores the lists the voice webhook reads.
      spamLists: await this.stores.spamLists.all(partnerId),
    };
  }
}

/** The session lifetime and hold-back are the pool's where it set them (docs/pool-sizing.md). */
function toPartnerConfig(partner: Partner, timing: SessionTiming): PartnerConfig {
  return {
    advId: partner.name,
    signingSecret: partner.signingSecret,
    country: partner.country,
    timeZone: partner.timeZone,
    sessionTtlSeconds: timing.sessionLifetimeSeconds,
    holdBackSeconds: timing.holdBackSeconds,
    onExhausted: partner.dni.onExhausted,
    fallbackNumber: partner.dni.fallbackNumber,
    ringTimeoutSeconds: partner.calls.ringTimeoutSeconds,
    screenCalls: partner.calls.screenCalls,
    spamPolicy: partner.spam.policy,
    spamThreshold: partner.spam.threshold,
    recordCalls: partner.intelligence.recordCalls,
    consentAnnouncement: partner.intelligence.consentAnnouncement,
  };
}
