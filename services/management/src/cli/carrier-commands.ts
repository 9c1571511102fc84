import { formatUtcTimestamp, normalizePhoneNumber } from '@trackline/domain';
import type { Command } from 'commander';
import { toCarrierAccountRecord } from '../carrier/carrier.routes';
import { parseBuyInput } from '../carrier/carrier-numbers.dto';
import type { CarrierNumbersService } from '../carrier/carrier-numbers.service';
import type { ManagementServices } from '../composition/management-services';
import type { CliContext } from './cli-context';

/** carrier:set/show/remove, numbers:buy/release and carrier:reconcile (docs/carrier-numbers.md). */
export function addCarrierCommands(program: Command, context: CliContext): void {
  const { output } = context;

  program
    .command('carrier:set')
    .description(
      "set a partner's carrier account (Twilio, or SignalWire with --base-url https://<space>.signalwire.com/api/laml); options left out keep their value",
    )
    .requiredOption('--partner <advId>', 'partner name')
    .option('--account-sid <sid>', 'Twilio account SID (AC…) or SignalWire project id')
    .option('--auth-token <token>', 'the auth token (SignalWire: API token); never shown again')
    .option('--base-url <url>', 'the REST API base URL (default https://api.twilio.com)')
    .action(
      async (options: { partner: string; accountSid?: string; authToken?: string; baseUrl?: string }) => {
        await context.withServices(async (services) => {
          const partner = await carrierNumbers(services).partnerNamed(options.partner);
          const body = {
            ...(options.accountSid === undefined ? {} : { account_sid: options.accountSid }),
            ...(options.authToken === undefined ? {} : { auth_token: options.authToken }),
            ...(options.baseUrl === undefined ? {} : { base_url: options.baseUrl }),
          };
          const account = await services.carrierAccounts.put(partner.id, body, new Date());
          output.out(`Carrier account of partner ${partner.name} set:`);
          printAccount(context, toCarrierAccountRecord(account));
        });
      },
    );

  program
    .command('carrier:show')
    .description("show a partner's carrier account (never the auth token)")
    .requiredOption('--partner <advId>', 'partner name')
    .action(async (options: { partner: string }) => {
      await context.withServices(async (services) => {
        const partner = await carrierNumbers(services).partnerNamed(options.partner);
        printAccount(context, toCarrierAccountRecord(await services.carrierAccounts.get(partner.id)));
      });
    });

  program
    .command('numbers:buy')
    .description(
      "buy tracking numbers at the partner's carrier and add them to its inventory (pointed at Trackline's webhooks)",
    )
    .requiredOption('--partner <advId>', 'partner name')
    .option('--count <n>', 'how many numbers (1–20)', '1')
    .option('--kind <kind>', 'pool or static', 'pool')
    .option('--country <code>', "ISO country code (default: the partner's country)")
    .option('--area-code <digits>', 'area code (US and Canada: 3 digits)')
    .option('--contains <pattern>', 'digits and * (any one digit) the number must contain')
    .action(
      async (options: {
        partner: string;
        count: string;
        kind: string;
        country?: string;
        areaCode?: string;
        contains?: string;
      }) => {
        await context.withServices(async (services) => {
          const carrier = carrierNumbers(services);
          const request = parseBuyInput({
            count: options.count,
            kind: options.kind,
            ...(options.country === undefined ? {} : { country: options.country }),
            ...(options.areaCode === undefined ? {} : { area_code: options.areaCode }),
            ...(options.contains === undefined ? {} : { contains: options.contains }),
          });
          const partner = await carrier.partnerNamed(options.partner);
          const { bought } = await carrier.buy(partner.id, request);
          output.out(
            `Bought ${bought.length} ${request.kind} number${bought.length === 1 ? '' : 's'} for partner ${partner.name}:`,
          );
          for (const number of bought) output.out(`  ${number}`);
        });
      },
    );

  program
    .command('numbers:release')
    .description(
      'release numbers at the carrier, remove them from the inventory and quarantine them for the partner (90 days)',
    )
    .requiredOption('--partner <advId>', 'partner name')
    .argument('<numbers...>', "numbers (E.164 or national in the partner's country)")
    .action(async (numbers: string[], options: { partner: string }) => {
      await context.withServices(async (services) => {
        const carrier = carrierNumbers(services);
        const partner = await carrier.partnerNamed(options.partner);
        const e164s = numbers.map((number) => normalizePhoneNumber('number', number, partner.country));
        // One at a time, each committed: a refusal stops the command, naming what was done before.
        for (const e164 of e164s) {
          const released = await carrier.releaseNumber(partner.id, e164);
          output.out(
            `Released ${e164} ${released.atCarrier ? 'at the carrier' : '(no longer on the carrier account)'}, removed from partner ${partner.name}'s inventory, quarantined until ${formatUtcTimestamp(released.quarantinedUntil)} UTC`,
          );
        }
      });
    });

  program
    .command('carrier:reconcile')
    .description(
      'finish purchases a crash left unfinished: add what the carrier bought, forget what it did not',
    )
    .action(async () => {
      await context.withServices(async (services) => {
        const results = await carrierNumbers(services).reconcileAll();
        if (results.size === 0) output.out('No unfinished carrier purchases.');
        for (const [partner, result] of results) {
          for (const e164 of result.finished)
            output.out(`partner ${partner}: added ${e164} (bought before a crash)`);
          for (const e164 of result.abandoned)
            output.out(`partner ${partner}: ${e164} was not bought; nothing to do`);
          for (const entry of result.unresolved)
            output.err(`partner ${partner}: ${entry.e164} still unfinished: ${entry.reason}`);
        }
        const unresolved = [...results.values()].reduce((sum, result) => sum + result.unresolved.length, 0);
        if (unresolved > 0)
          throw new Error(
            `${unresolved} purchase${unresolved === 1 ? '' : 's'} still unfinished; run carrier:reconcile again once the carrier answers`,
          );
      });
    });
}

function carrierNumbers(services: ManagementServices): CarrierNumbersService {
  // The CLI's services are built from the whole config, which always names the public URLs.
  if (services.carrierNumbers === undefined) throw new Error('carrier numbers are not configured');
  return services.carrierNumbers;
}

function printAccount(context: CliContext, record: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(record)) context.output.out(`  ${name}: ${String(value)}`);
}
