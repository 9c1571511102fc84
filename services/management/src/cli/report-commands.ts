import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseCalendarMonth } from '@trackline/domain';
import { createLogger } from '@trackline/platform';
import type { Command } from 'commander';
import type { CliContext } from './cli-context';
import { configuredEmailChannel } from '../notifications/email.channel';
import { createMonthlyReportMailing } from '../composition/monthly-report-composition';
import { createNotificationWorker } from '../composition/start-notification-worker';

/** `reports:send` (docs/reports.md, docs/operations.md). */
export function addReportCommands(program: Command, context: CliContext): void {
  program
    .command('reports:send')
    .description(
      "send a month's monthly reports that have not been sent yet, now, to every customer with " +
        'receive_monthly_report = 1 and an e-mail (once per customer and month, whoever sends it)',
    )
    .requiredOption('--month <YYYY-MM>', 'the month of the reports (it must have ended)')
    .option('--partner <advId>', "only this partner's customers (partner name)")
    .action(async (options: { month: string; partner?: string }) => {
      const month = parseCalendarMonth('--month', options.month);
      const config = context.config();
      const lines = await context.withDatabase(async (dataSource, stores) => {
        const mailing = createMonthlyReportMailing(dataSource, config);
        const queued = await mailing.queue.enqueueMonth(month, new Date(), options.partner);
        const toSend = queued.rows.filter((row) => row.status === 'pending').map((row) => row.id);
        const sentBefore = queued.rows.filter((row) => row.status === 'sent' || row.status === 'logged');
        const elsewhere = queued.rows.filter((row) => row.status === 'sending' || row.status === 'dead');
        const email = configuredEmailChannel(config);
        try {
          const worker = createNotificationWorker({
            dataSource,
            config,
            channels: { email, sms: null },
            composers: mailing.composers,
            logger: createLogger({ service: 'trackline-cli', level: 'silent' }),
            workerId: `cli-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
          });
          await worker.runFor(toSend);
        } finally {
          email?.close();
        }
        const after = await stores.outbox.findByIds(toSend);
        return summary(month, after, sentBefore.length, elsewhere.length, email === null);
      });
      for (const line of lines.out) context.output.out(line);
      for (const line of lines.err) context.output.err(line);
      if (lines.failed > 0)
        throw new Error(
          `${lines.failed} monthly report${lines.failed === 1 ? '' : 's'} could not be sent now; ` +
            'they stay in the outbox and the notification worker retries them',
        );
    });
}

function summary(
  month: string,
  rows: ReadonlyArray<{ id: string; uniqueKey: string | null; status: string; lastError: string | null }>,
  sentBefore: number,
  elsewhere: number,
  noSmtp: boolean,
): { out: string[]; err: string[]; failed: number } {
  const sent = rows.filter((row) => row.status === 'sent').length;
  const logged = rows.filter((row) => row.status === 'logged').length;
  const failed = rows.filter((row) => row.status !== 'sent' && row.status !== 'logged');
  const before = [
    sentBefore > 0 ? `${sentBefore} already sent before` : '',
    elsewhere > 0 ? `${elsewhere} being sent by a worker or dead (see notifications:requeue-dead)` : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
  const tail = before === '' ? '' : ` (${before})`;
  const out: string[] = [];
  if (rows.length === 0) out.push(`No monthly reports to send for ${month}${tail}`);
  if (sent > 0) out.push(`Sent ${sent} monthly report${sent === 1 ? '' : 's'} for ${month}${tail}`);
  if (logged > 0)
    out.push(
      `Logged ${logged} monthly report${logged === 1 ? '' : 's'} for ${month} instead of sending them` +
        `${noSmtp ? ' (SMTP_URL is not set)' : ''}${tail}`,
    );
  const err = failed.map(
    (row) =>
      `${row.uniqueKey ?? row.id}: not sent (${row.status}): ${row.lastError ?? 'no answer from the channel'}`,
  );
  return { out, err, failed: failed.length };
}
