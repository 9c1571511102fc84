import type { Command } from 'commander';
import { DeadNotificationsService } from '../notifications/dead-notifications.service';
import type { CliContext } from './cli-context';

export function addConversionCommands(program: Command, context: CliContext): void {
  program
    .command('conversions:requeue-dead')
    .description(
      'send dead Google Ads and GA4 conversions again: back to pending with a fresh set of attempts, ' +
        'same order id, so Google Ads still counts each once (run it once the partner mended its ' +
        'credentials; the running exporter picks them up)',
    )
    .option('--partner <advId>', "only this partner's conversions (partner name)")
    .option(
      '--since <date>',
      'only conversions queued at or after this time: YYYY-MM-DD (midnight UTC), ' +
        '"YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset',
    )
    .action(async (options: { partner?: string; since?: string }) => {
      const count = await context.withDatabase((_dataSource, stores) => {
        const { conversionOutbox: outbox, deadNotifications: partners } = stores;
        // The operator's filter is read as for notifications; only the conversion outbox is changed.
        return new DeadNotificationsService({
          partnerIdByName: (name) => partners.partnerIdByName(name),
          requeueDead: (filter, now) => outbox.requeueDead(filter, now),
        }).requeue(options, new Date());
      });
      context.output.out(
        count === 0
          ? 'No dead conversions to requeue'
          : `Requeued ${count} dead conversion${count === 1 ? '' : 's'}`,
      );
    });
}
