import { isTracklineError } from '@trackline/domain';
import { ConfigError, type Env } from '@trackline/platform';
import { Command, CommanderError } from 'commander';
import { runMigrations } from '../db/migrate';
import { isUndefinedTable } from '../db/pg-errors';
import { CarrierError, CarrierFailedError } from '../carrier/carrier-error';
import { createCliContext } from './cli-context';
import type { CliOutput } from './cli-output';
import { addNotificationCommands } from './notification-commands';
import { addConversionCommands } from './conversion-commands';
import { addDataLifecycleCommands } from './data-lifecycle-commands';
import { addNumberCommands } from './number-commands';
import { addPoolCommands } from './pool-commands';
import { addCarrierCommands } from './carrier-commands';
import { addPartnerCommands } from './partner-commands';
import { addProjectionCommands } from './projection-commands';
import { addReportCommands } from './report-commands';

/**
 * Runs one operator command and returns the exit code: 0 done, 1 refused (bad input, unknown
 * partner, unreachable database), each refusal as one line on stderr.
 */
export async function runCli(argv: readonly string[], env: Env, output: CliOutput): Promise<number> {
  const program = new Command('trackline')
    .description('Trackline operator commands')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => output.out(text.trimEnd()),
      writeErr: (text) => output.err(text.trimEnd()),
    });
  const context = createCliContext(env, output);

  program
    .command('migrate')
    .description('apply pending database migrations (safe to run from several processes at once)')
    .action(async () => {
      const applied = await runMigrations(context.config().databaseUrl);
      if (applied.length === 0) output.out('Database schema is up to date; no migration applied');
      for (const name of applied) output.out(`Applied migration ${name}`);
    });
  addPartnerCommands(program, context);
  addNumberCommands(program, context);
  addPoolCommands(program, context);
  addCarrierCommands(program, context);
  addProjectionCommands(program, context);
  addNotificationCommands(program, context);
  addConversionCommands(program, context);
  addReportCommands(program, context);
  addDataLifecycleCommands(program, context);

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help); only the code is left to decide.
      return error.exitCode === 0 ? 0 : 1;
    }
    output.err(`error: ${describe(error)}`);
    return 1;
  }
}

function describe(error: unknown): string {
  if (isTracklineError(error)) return error.message;
  if (error instanceof CarrierError) return new CarrierFailedError(error).message;
  if (error instanceof ConfigError) return error.problems.join('; ');
  if (isUndefinedTable(error)) {
    return 'the database has no schema yet; run `trackline migrate` first';
  }
  return error instanceof Error ? error.message : String(error);
}
