import { ValidationError } from '@trackline/domain';
import type { Command } from 'commander';
import type { DataLifecycleReport } from '../data-lifecycle/data-lifecycle.service';
import type { CliContext } from './cli-context';

export function addDataLifecycleCommands(program: Command, context: CliContext): void {
  program
    .command('cdrs:partitions')
    .description(
      'create the missing monthly partitions of cdrs up to N months ahead (idempotent; moves records ' +
        'the default partition caught for those months into them)',
    )
    .option('--months-ahead <n>', 'months after the current one (0-24)', '3')
    .action(async (options: { monthsAhead: string }) => {
      const monthsAhead = parseMonthsAhead(options.monthsAhead);
      await context.withDataLifecycle(monthsAhead, async ({ partitions }) => {
        const ensured = await partitions.ensure(new Date(), monthsAhead);
        for (const name of ensured.created) context.output.out(`Created partition ${name}`);
        if (ensured.created.length === 0) context.output.out('Every month up to then has its partition');
        if (ensured.moved > 0)
          context.output.out(`Moved ${ensured.moved} records from cdrs_default into their new months`);
        context.output.out(
          ensured.defaultRows === 0
            ? 'cdrs_default is empty'
            : `cdrs_default holds ${ensured.defaultRows} records outside every month (see docs/operations.md)`,
        );
      });
    });

  program
    .command('data-lifecycle:run')
    .description(
      'run the daily data lifecycle now: partitions ahead, retention (drop or delete), anum masking ' +
        '(the service runs it once a day by itself)',
    )
    .action(async () => {
      const monthsAhead = context.config().dataLifecycle.monthsAhead;
      await context.withDataLifecycle(monthsAhead, async ({ service }) => {
        for (const line of describeReport(await service.run(new Date()))) context.output.out(line);
      });
    });

  program
    .command('privacy:erase')
    .description(
      "remove a caller's number from a partner's call records (masked), recordings, notifications, " +
        'webhook deliveries, call attributions, provider calls, spam lists and history; safe to run again',
    )
    .requiredOption('--partner <advId>', 'partner name')
    .requiredOption('--caller <number>', "the caller's number, E.164 or national in the partner's country")
    .action(async (options: { partner: string; caller: string }) => {
      await context.withPrivacyErasure(async (erasure) => {
        const report = await erasure.erase(options.partner, options.caller);
        context.output.out(`Erased caller ${report.caller} for partner ${report.partner}:`);
        context.output.out(`  call records masked:          ${report.recordsMasked}`);
        context.output.out(`  cnum masked in records:       ${report.cnumsMasked}`);
        context.output.out(`  recordings deleted:           ${report.recordingsDeleted}`);
        context.output.out(`  transcripts deleted:          ${report.transcriptsDeleted}`);
        context.output.out(`  notifications redacted:       ${report.notificationsRedacted}`);
        context.output.out(`  webhook deliveries redacted:  ${report.webhookDeliveriesRedacted}`);
        context.output.out(`  call attributions deleted:    ${report.attributionsDeleted}`);
        context.output.out(`  provider calls masked:        ${report.providerCallsMasked}`);
        context.output.out(`  spam list and history erased: ${report.spamEntriesErased}`);
      });
    });
}

function parseMonthsAhead(value: string): number {
  if (!/^\d{1,2}$/.test(value) || Number(value) > 24)
    throw new ValidationError('months-ahead', 'must be a whole number from 0 to 24');
  return Number(value);
}

export function describeReport(report: DataLifecycleReport): string[] {
  return [
    `Partitions created: ${report.partitionsCreated.length === 0 ? 'none' : report.partitionsCreated.join(', ')}`,
    `Months dropped: ${report.monthsDropped.length === 0 ? 'none' : report.monthsDropped.join(', ')} (${report.recordsDropped} records)`,
    `Records deleted one by one: ${report.recordsDeleted}`,
    `Recordings deleted: ${report.recordingsDeleted}`,
    `Callers' numbers masked: ${report.recordsMasked}`,
    `Notifications deleted: ${report.notificationsDeleted}`,
    `Conversions deleted: ${report.conversionsDeleted}`,
    `Transcripts deleted: ${report.transcriptsDeleted}`,
    `Records in cdrs_default: ${report.recordsInDefault}`,
  ];
}
