import type { Command } from 'commander';
import type { CliContext } from './cli-context';

export function addProjectionCommands(program: Command, context: CliContext): void {
  program
    .command('projections:rebuild')
    .description('rewrite every Redis projection from the database (idempotent; pool LRU state is kept)')
    .action(async () => {
      await context.withProjections(async (projections) => {
        const { counts, generation, marked } = await projections.rebuild('command');
        context.output.out(
          `Rebuilt projections of ${counts.partners} partner${counts.partners === 1 ? '' : 's'}: ` +
            `${counts.poolNumbers} pool numbers, ${counts.staticRoutes} static routes, ` +
            `${counts.answeringNumbers} answering numbers; ` +
            `removed ${counts.staleIndexEntries} stale index entr${counts.staleIndexEntries === 1 ? 'y' : 'ies'}`,
        );
        context.output.out(
          marked
            ? `Generation ${generation.id} marked complete`
            : 'Redis lost data during the rebuild: no generation marked; run it again (the service rebuilds by itself)',
        );
      });
    });
}
