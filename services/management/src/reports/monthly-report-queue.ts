import { Cron } from 'croner';
import { monthHasEnded, monthOf, NotFoundError, previousMonth, ValidationError } from '@trackline/domain';
import type { OutboxRowState, UniqueNotificationToSend } from '../notifications/outbox.store';
import type { Partner } from '../partners/partner';
import type { ReportRecipient } from './monthly-reports.store';

/** When the e-mail of last month goes out: 06:00 on the 1st, on the partner's wall clock. */
export const REPORT_SCHEDULE = '0 6 1 * *';

export interface ReportQueueDeps {
  partners: { list(): Promise<Partner[]> };
  recipients: { recipients(partnerId: string): Promise<ReportRecipient[]> };
  outbox: {
    enqueueUnique(items: readonly UniqueNotificationToSend[]): Promise<string[]>;
    findByUniqueKeys(keys: readonly string[]): Promise<OutboxRowState[]>;
  };
}

/** The outbox rows of one month's reports, as `reports:send` found or made them. */
export interface QueuedMonth {
  month: string;
  /** Rows this call added. */
  added: string[];
  /** Every row of the month's recipients, with its state after the enqueue. */
  rows: OutboxRowState[];
}

/** The key that makes a customer's month one outbox row (docs/reports.md). */
export function reportKey(customerId: string, month: string): string {
  return `monthly_report:${customerId}:${month}`;
}

/**
 * Puts monthly report e-mails into the notification outbox, once per customer and month: the
 * outbox's unique key decides, so the schedule on every replica, a restart in the middle, and an
 * operator's `reports:send` all end with one row (docs/reports.md).
 */
export class MonthlyReportQueue {
  constructor(
    private readonly deps: ReportQueueDeps,
    private readonly settings: { catchUpHours: number },
  ) {}

  /**
   * The schedule's tick: for each partner whose latest 06:00 on the 1st (its time zone) lies
   * less than `catchUpHours` back, last month's reports of every customer who asks for one.
   * Answers how many rows were added.
   */
  async enqueueDue(now: Date): Promise<number> {
    let added = 0;
    for (const partner of await this.deps.partners.list()) {
      const dueAt = latestScheduledRun(partner.timeZone, now);
      if (dueAt === null || now.getTime() - dueAt.getTime() >= this.settings.catchUpHours * 3_600_000)
        continue;
      const month = previousMonth(monthOf(dueAt, partner.timeZone));
      added += (await this.enqueuePartner(partner, month, now)).length;
    }
    return added;
  }

  /**
   * `reports:send`: the month's reports of one partner (by advId) or of all, refused while the
   * month has not ended in a partner's time zone (its report would be cut short, and sent once).
   */
  async enqueueMonth(month: string, now: Date, partnerName?: string): Promise<QueuedMonth> {
    const partners = await this.deps.partners.list();
    const chosen = partnerName === undefined ? partners : partners.filter((p) => p.name === partnerName);
    if (partnerName !== undefined && chosen.length === 0) throw new NotFoundError(`partner ${partnerName}`);
    for (const partner of chosen) {
      if (!monthHasEnded(month, now, partner.timeZone))
        throw new ValidationError(
          '--month',
          `${month} has not ended yet for partner ${partner.name} (${partner.timeZone})`,
        );
    }
    const added: string[] = [];
    const keys: string[] = [];
    for (const partner of chosen) {
      const recipients = await this.deps.recipients.recipients(partner.id);
      added.push(...(await this.enqueueRecipients(partner, month, recipients, now)));
      keys.push(...recipients.map((recipient) => reportKey(recipient.customerId, month)));
    }
    return { month, added, rows: await this.deps.outbox.findByUniqueKeys(keys) };
  }

  private async enqueuePartner(partner: Partner, month: string, now: Date): Promise<string[]> {
    return this.enqueueRecipients(partner, month, await this.deps.recipients.recipients(partner.id), now);
  }

  private enqueueRecipients(
    partner: Partner,
    month: string,
    recipients: readonly ReportRecipient[],
    now: Date,
  ): Promise<string[]> {
    return this.deps.outbox.enqueueUnique(
      recipients.map((recipient) => ({
        uniqueKey: reportKey(recipient.customerId, month),
        channel: 'email',
        kind: 'monthly_report',
        recipient: recipient.email,
        // The message is built when it is sent (figures, chart, CSV); the row says which.
        payload: {
          subject: `Monthly call report ${month}`,
          text: `Monthly call report ${month} for customer ${recipient.customerId}`,
          report: { partnerId: partner.id, customerId: recipient.customerId, month },
        },
        notBefore: now,
      })),
    );
  }
}

/** The latest instant at or before `now` that the schedule names in `timeZone` (croner decides). */
export function latestScheduledRun(timeZone: string, now: Date): Date | null {
  const schedule = new Cron(REPORT_SCHEDULE, { timezone: timeZone, paused: true });
  try {
    // previousRuns looks strictly before its reference; a tick at the due second itself counts.
    return schedule.previousRuns(1, new Date(now.getTime() + 1000))[0] ?? null;
  } finally {
    schedule.stop();
  }
}
