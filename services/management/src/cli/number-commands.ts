import { formatUtcTimestamp } from '@trackline/domain';
import type { Command } from 'commander';
import type { TrackingNumber } from '../numbers/tracking-number';
import { formatTable } from './cli-output';
import type { CliContext } from './cli-context';

export function addNumberCommands(program: Command, context: CliContext): void {
  program
    .command('numbers:add')
    .description(
      "add tracking numbers to a partner's inventory; each argument is a number (E.164 or national in " +
        "the partner's country) or a range +4791000001-+4791000010 (all or nothing: a number already in " +
        'the inventory refuses the command)',
    )
    .requiredOption('--partner <advId>', 'partner name')
    .requiredOption('--kind <kind>', 'pool (dynamic number insertion) or static (sources’ destnr)')
    .argument('<numbers...>', 'numbers or inclusive ranges')
    .action(async (specs: string[], options: { partner: string; kind: string }) => {
      await context.withServices(async ({ numbers }) => {
        const added = await numbers.add(options.partner, options.kind, specs, new Date());
        const count = added.numbers.length;
        context.output.out(
          `Added ${count} ${added.kind} number${count === 1 ? '' : 's'} to partner ${added.partner.name}:`,
        );
        for (const number of added.numbers) context.output.out(`  ${number}`);
      });
    });

  program
    .command('numbers:list')
    .description("list a partner's tracking numbers and what uses them")
    .requiredOption('--partner <advId>', 'partner name')
    .action(async (options: { partner: string }) => {
      await context.withServices(async ({ numbers }) => {
        const { partner, numbers: inventory } = await numbers.list(options.partner);
        if (inventory.length === 0) {
          context.output.out(`Partner ${partner.name} has no tracking numbers; add some with numbers:add.`);
          return;
        }
        const rows = inventory.map((number) => [number.kind, number.e164, describeUse(number, new Date())]);
        for (const line of formatTable(['KIND', 'NUMBER', 'USE'], rows)) context.output.out(line);
      });
    });
}

/** Pool numbers are used by visitor sessions, which live in Redis: pool use is GET /number_pools. */
function describeUse(number: TrackingNumber, now: Date): string {
  if (number.kind === 'pool') return 'pool';
  if (number.usedBySourceId !== null) return `source ${number.usedBySourceId}`;
  if (number.heldUntil !== null && number.heldUntil > now) {
    return `held until ${formatUtcTimestamp(number.heldUntil)} UTC`;
  }
  return 'free';
}
