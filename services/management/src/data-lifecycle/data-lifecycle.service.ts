import type { CdrMonth, EnsuredPartitions } from '../cdrs/cdr-partitions.store';
import type { RemovedRecords } from '../cdrs/cdr-lifecycle.store';

/** A partner's data lifecycle settings (docs/privacy.md). */
export interface LifecyclePartner {
  id: string;
  name: string;
  cdrRetentionMonths: number;
  anumMaskAfterDays: number | null;
}

export interface DataLifecycleDeps {
  partners: { list(): Promise<LifecyclePartner[]> };
  partitions: {
    months(): Promise<CdrMonth[]>;
    ensure(now: Date, monthsAhead: number): Promise<EnsuredPartitions>;
    defaultRows(): Promise<number>;
  };
  cdrs: {
    dropMonth(month: CdrMonth): Promise<RemovedRecords>;
    deleteBefore(partnerId: string, before: Date): Promise<RemovedRecords>;
    maskBetween(partnerId: string, from: Date, before: Date): Promise<number>;
  };
  outbox: { deleteOrphaned(): Promise<number> };
  /** The conversion outbox (docs/conversions.md): its rows of removed records. */
  conversions: { deleteOrphaned(): Promise<number> };
  /** The call records' change feed (docs/cdrs.md, Change feed): its rows past their retention. */
  cdrChanges: { deleteBefore(cutoff: Date): Promise<number> };
  /** Recordings, transcription jobs and transcripts of removed records (docs/call-intelligence.md). */
  callIntelligence: { deleteOrphaned(): Promise<{ recordings: number; transcripts: number }> };
}

/** What one run did; logged, counted in metrics and kept in "data_lifecycle_runs". */
export interface DataLifecycleReport {
  partitionsCreated: string[];
  /** Records moved out of the default partition into a month created for them. */
  recordsMovedFromDefault: number;
  /** Records in the default partition after the run: should be none (docs/operations.md). */
  recordsInDefault: number;
  monthsDropped: string[];
  /** In dropped months. */
  recordsDropped: number;
  /** One by one, where some partner still keeps the month. */
  recordsDeleted: number;
  recordingsDeleted: number;
  recordsMasked: number;
  notificationsDeleted: number;
  /** Conversion outbox rows of removed records, sent or not. */
  conversionsDeleted: number;
  /** Change feed rows older than CDR_CHANGE_RETENTION_DAYS. */
  cdrChangesDeleted: number;
  /** Transcripts of removed records (their transcription jobs go too, uncounted like any queue row). */
  transcriptsDeleted: number;
}

const DAY_MS = 86_400_000;

/**
 * The daily data lifecycle (docs/privacy.md): months ahead created; records past their partner's
 * retention removed — a whole month dropped when every partner's retention has passed it (cheap, no
 * dead rows to vacuum), otherwise that partner's rows deleted; callers' numbers masked past their
 * partner's masking age; notifications, conversions, transcripts, transcription jobs and answered
 * calls' recordings of removed records deleted; the change feed's rows past their retention deleted.
 * Masking leaves transcripts as they are: they hold no caller's number.
 */
export class DataLifecycleService {
  constructor(
    private readonly deps: DataLifecycleDeps,
    private readonly monthsAhead: number,
    /** CDR_CHANGE_RETENTION_DAYS (docs/configuration.md). */
    private readonly cdrChangeRetentionDays: number,
  ) {}

  async run(now: Date): Promise<DataLifecycleReport> {
    const partitions = await this.deps.partitions.ensure(now, this.monthsAhead);
    const report: DataLifecycleReport = {
      partitionsCreated: partitions.created,
      recordsMovedFromDefault: partitions.moved,
      recordsInDefault: partitions.defaultRows,
      monthsDropped: [],
      recordsDropped: 0,
      recordsDeleted: 0,
      recordingsDeleted: 0,
      recordsMasked: 0,
      notificationsDeleted: 0,
      conversionsDeleted: 0,
      cdrChangesDeleted: 0,
      transcriptsDeleted: 0,
    };
    const partners = await this.deps.partners.list();
    if (partners.length > 0) await this.removeAndMask(now, partners, report);
    // After the deletes above, whose tombstones then have their full retention ahead of them.
    report.cdrChangesDeleted = await this.deps.cdrChanges.deleteBefore(
      new Date(now.getTime() - this.cdrChangeRetentionDays * DAY_MS),
    );
    report.recordsInDefault = await this.deps.partitions.defaultRows();
    return report;
  }

  private async removeAndMask(
    now: Date,
    partners: LifecyclePartner[],
    report: DataLifecycleReport,
  ): Promise<void> {
    const cutoffs = new Map(partners.map((partner) => [partner.id, retentionCutoff(now, partner)]));
    const everyoneDone = Math.min(...[...cutoffs.values()].map((cutoff) => cutoff.getTime()));
    for (const month of await this.deps.partitions.months()) {
      if (month.to.getTime() > everyoneDone) continue;
      const dropped = await this.deps.cdrs.dropMonth(month);
      report.monthsDropped.push(month.name);
      report.recordsDropped += dropped.records;
      report.recordingsDeleted += dropped.recordings;
    }
    for (const partner of partners) {
      const cutoff = cutoffs.get(partner.id)!;
      const deleted = await this.deps.cdrs.deleteBefore(partner.id, cutoff);
      report.recordsDeleted += deleted.records;
      report.recordingsDeleted += deleted.recordings;
      if (partner.anumMaskAfterDays !== null) {
        const maskBefore = new Date(now.getTime() - partner.anumMaskAfterDays * DAY_MS);
        if (maskBefore > cutoff)
          report.recordsMasked += await this.deps.cdrs.maskBetween(partner.id, cutoff, maskBefore);
      }
    }
    report.notificationsDeleted = await this.deps.outbox.deleteOrphaned();
    report.conversionsDeleted = await this.deps.conversions.deleteOrphaned();
    const conversations = await this.deps.callIntelligence.deleteOrphaned();
    report.transcriptsDeleted = conversations.transcripts;
    report.recordingsDeleted += conversations.recordings;
  }
}

/** Records that started before this instant are past the partner's retention. */
export function retentionCutoff(now: Date, partner: Pick<LifecyclePartner, 'cdrRetentionMonths'>): Date {
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - partner.cdrRetentionMonths, 1));
  // The same day of the month, or the month's last day when it is shorter (31 March − 1 month).
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return new Date(target.getTime() + (now.getTime() % DAY_MS));
}
