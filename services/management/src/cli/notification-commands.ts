import type { Command } from 'commander';
import { DeadNotificationsService } from '../notifications/dead-notifications.service';
import { TypeormDeadNotificationStore } from '../notifications/dead-notifications.store';
import type { CliContext } from './cli-context';

export function addNotificationCommands(program: Command, context: CliContext): void {
  program
    .command('notifications:requeue-dead')
    .description(
      'send dead notifications again: back to pending with a fresh set of attempts, same delivery key ' +
        '(run it once the channel is fixed; the running worker picks them up)',
    )
    .option('--partner <advId>', "only the notifications of this partner's calls (partner name)")
    .option(
      '--since <date>',
      'only notifications written at or after this time: YYYY-MM-DD (midnight UTC), ' +
        '"YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset',
    )
    .action(async (options: { partner?: string; since?: string }) => {
      const count = await context.withDatabase((dataSource) =>
        new DeadNotificationsService(new TypeormDeadNotificationStore(dataSource.manager)).requeue(
          options,
          new Date(),
        ),
      );
      context.output.out(
        count === 0
          ? 'No dead notifications to requeue'
          : `Requeued ${count} dead notification${count === 1 ? '' : 's'}`,
      );
    });
}
