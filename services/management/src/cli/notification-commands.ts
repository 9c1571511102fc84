import type { Command } from 'commander';
import { DeadNotificationsService } from '../notifications/dead-notifications.service';
import type { CliContext } from './cli-context';

export function addNotificationCommands(program: Command, context: CliContext): void {
  program
    .command('notifications:requeue-dead')
    .description(
      'send dead notifications and dead webhook deliveries again: back to pending with a fresh set of ' +
        'attempts, same delivery key / webhook-id (run it once the channel or the receiver is fixed; ' +
        'the running worker picks them up)',
    )
    .option(
      '--partner <advId>',
      "only the notifications and webhooks of this partner's events (partner name)",
    )
    .option(
      '--since <date>',
      'only notifications written at or after this time: YYYY-MM-DD (midnight UTC), ' +
        '"YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset',
    )
    .action(async (options: { partner?: string; since?: string }) => {
      const { notifications: count, webhookDeliveries } = await context.withDatabase((_dataSource, stores) =>
        new DeadNotificationsService(stores.deadNotifications, stores.webhookDeliveries).requeueAll(
          options,
          new Date(),
        ),
      );
      context.output.out(
        count === 0
          ? 'No dead notifications to requeue'
          : `Requeued ${count} dead notification${count === 1 ? '' : 's'}`,
      );
      if (webhookDeliveries > 0) {
        context.output.out(
          `Requeued ${webhookDeliveries} dead webhook deliver${webhookDeliveries === 1 ? 'y' : 'ies'}`,
        );
      }
    });
}
