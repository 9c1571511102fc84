import type { Command } from 'commander';
import type { Partner } from '../partners/partner';
import type { PartnerSettingsInput } from '../partners/partner-settings.dto';
import { formatTable } from './cli-output';
import type { CliContext } from './cli-context';
import { describeAllowIps, describeCustomFields, describePartner, maskSecret } from './partner-summary';

/** What commander parses: the settings input, with the two options whose flag names differ. */
type SettingsOptions = Omit<PartnerSettingsInput, 'allowIps' | 'timeZone'> & {
  allowIp?: string[];
  timezone?: string;
};

/**
 * partner:update's call-intelligence options (docs/operations.md) by the wire field of the
 * partner's own settings (GET|PUT /settings), whose one parser checks them.
 */
const INTELLIGENCE_OPTIONS = {
  recordCalls: ['--record-calls <flag>', 'record_calls', '1: record answered calls (both parties); 0: off'],
  consentAnnouncement: [
    '--consent-announcement <text>',
    'consent_announcement',
    'said to the caller before a recorded call is put through ("" for none)',
  ],
  transcription: [
    '--transcription <flag>',
    'transcription',
    '1: transcribe recordings (needs STT_BASE_URL); 0: off',
  ],
  autoOutcome: [
    '--auto-outcome <which>',
    'auto_outcome',
    'classifications that set the outcome: off, lead or all',
  ],
  redactCards: ['--redact-cards <flag>', 'redact_cards', '1: card numbers out of transcripts; 0: kept'],
  redactEmails: [
    '--redact-emails <flag>',
    'redact_emails',
    '1: e-mail addresses out of transcripts; 0: kept',
  ],
  redactPhones: ['--redact-phones <flag>', 'redact_phones', '1: phone numbers out of transcripts; 0: kept'],
} as const;

type IntelligenceOptions = { [key in keyof typeof INTELLIGENCE_OPTIONS]?: string };

function intelligenceInput(options: IntelligenceOptions): Record<string, string> {
  const input: Record<string, string> = {};
  for (const [key, [, field]] of Object.entries(INTELLIGENCE_OPTIONS)) {
    const value = options[key as keyof IntelligenceOptions];
    if (value !== undefined) input[field] = value;
  }
  return input;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The settings options partner:create and partner:update share; `required` marks create's musts. */
function addSettingsOptions(command: Command, required: boolean): Command {
  const credential = required ? command.requiredOption.bind(command) : command.option.bind(command);
  credential('--username <username>', 'digest username the partner authenticates with');
  credential('--password <password>', 'digest password (at least 8 characters; only its HA1 is stored)');
  credential('--signing-secret <secret>', 'secret of signed replacement requests (at least 16 characters)');
  return command
    .option(
      '--allow-ip <cidr>',
      'allowed client address or CIDR, IPv4 or IPv6; repeat for more (replaces the list)',
      collect,
    )
    .option('--country <code>', 'ISO 3166 country for national phone numbers', required ? 'NO' : undefined)
    .option('--timezone <zone>', 'IANA time zone of all time windows', required ? 'Europe/Oslo' : undefined)
    .option('--on-exhausted <choice>', 'when no pool number is free: recycle or original')
    .option('--fallback-number <number>', 'where calls to an unbound pool number go ("" clears it)')
    .option('--show-full-anum <flag>', "1 to show callers' numbers whole in call records, 0 to mask them")
    .option(
      '--ring-timeout <seconds>',
      'seconds a provider call rings the answering phone ("" for the default)',
    )
    .option('--screen-calls <flag>', '1: the answering phone must press 1 to take a provider call; 0: off')
    .option(
      '--cdr-retention-months <months>',
      'call records and recordings older than this are deleted by the daily job (1-1200; default 24)',
    )
    .option(
      '--anum-mask-after-days <days>',
      "callers' numbers are masked in records older than this (1-36500, or off; default off)",
    )
    .option(
      '--rate-limit-per-minute <requests>',
      'partner API requests per minute (0: no limit; "default": RATE_LIMIT_PER_MINUTE)',
    )
    .option(
      '--session-lifetime-seconds <seconds>',
      'seconds a pool number stays with a session after its last request (60-86400; default 1800)',
    )
    .option(
      '--hold-back-seconds <seconds>',
      'seconds a number keeps routing to its last session after that (0-86400; default 600)',
    )
    .option(
      '--target-overflow <share>',
      'Erlang B blocking the pool-sizing advice aims for (above 0, at most 1; default 0.01)',
    )
    .option(
      '--pool-exhausted-share <share>',
      'recycled share of an hour that raises pool.exhausted (above 0, at most 1; default 0.05)',
    )
    .option(
      '--spam-policy <policy>',
      'what the voice webhook does with a call judged spam: allow, challenge, voicemail or reject (default allow)',
    )
    .option(
      '--spam-threshold <score>',
      'the spam score (0-100) from which a call is judged spam (default 70)',
    )
    .option(
      '--contact-email <address>',
      'where Trackline writes to the partner, e.g. when it disables a failing webhook ("" clears it)',
    );
}

function toSettings(options: SettingsOptions): PartnerSettingsInput {
  return {
    username: options.username,
    password: options.password,
    signingSecret: options.signingSecret,
    allowIps: options.allowIp,
    country: options.country,
    timeZone: options.timezone,
    onExhausted: options.onExhausted,
    fallbackNumber: options.fallbackNumber,
    showFullAnum: options.showFullAnum,
    ringTimeout: options.ringTimeout,
    screenCalls: options.screenCalls,
    cdrRetentionMonths: options.cdrRetentionMonths,
    anumMaskAfterDays: options.anumMaskAfterDays,
    rateLimitPerMinute: options.rateLimitPerMinute,
    sessionLifetimeSeconds: options.sessionLifetimeSeconds,
    holdBackSeconds: options.holdBackSeconds,
    targetOverflow: options.targetOverflow,
    poolExhaustedShare: options.poolExhaustedShare,
    spamPolicy: options.spamPolicy,
    spamThreshold: options.spamThreshold,
    contactEmail: options.contactEmail,
  };
}

export function addPartnerCommands(program: Command, context: CliContext): void {
  addSettingsOptions(program.command('partner:create').description('create a partner (master account)'), true)
    .requiredOption('--name <advId>', 'partner name, the advId of replacement requests')
    .action(async (options: SettingsOptions & { name: string }) => {
      await context.withServices(async ({ partners }) => {
        const partner = await partners.create({
          ...toSettings(options),
          name: options.name,
          username: options.username!,
          password: options.password!,
          signingSecret: options.signingSecret!,
        });
        context.output.out(`Created partner ${partner.name}`);
        for (const line of describePartner(partner)) context.output.out(line);
      });
    });

  const update = addSettingsOptions(
    program
      .command('partner:update')
      .description('change settings of a partner; options left out keep their value'),
    false,
  );
  for (const [flags, , description] of Object.values(INTELLIGENCE_OPTIONS)) update.option(flags, description);
  update
    .requiredOption('--name <advId>', 'partner to change')
    .action(async (options: SettingsOptions & IntelligenceOptions & { name: string }) => {
      await context.withServices(async ({ partners }) => {
        const settings = toSettings(options);
        const intelligence = intelligenceInput(options);
        const other = Object.values(settings).some((value) => value !== undefined);
        // Without any option, update's own message names the rule (at least one setting).
        let { partner, changed } =
          other || Object.keys(intelligence).length === 0
            ? await partners.update(options.name, settings)
            : { partner: null as Partner | null, changed: [] as string[] };
        if (Object.keys(intelligence).length > 0) {
          // The partner's own settings resource: its checks, and the projections follow.
          partner = await partners.updateOwnSettingsByName(options.name, intelligence);
          changed = [...changed, ...Object.keys(intelligence).map((field) => field.replace(/_/g, '-'))];
        }
        if (partner === null) return;
        context.output.out(`Updated partner ${partner.name}: ${changed.join(', ')}`);
        for (const line of describePartner(partner)) context.output.out(line);
      });
    });

  program
    .command('partner:list')
    .description('list partners (secrets shortened)')
    .option('--json', 'print one JSON array instead of a table (for scripts)')
    .action(async (options: { json?: boolean }) => {
      await context.withServices(async ({ partners }) => {
        const all = await partners.list();
        if (options.json === true) {
          context.output.out(JSON.stringify(all.map(toListedPartner)));
          return;
        }
        if (all.length === 0) {
          context.output.out('No partners yet; create one with partner:create.');
          return;
        }
        const rows = all.map((partner) => [
          partner.id,
          partner.name,
          partner.digestUsername,
          maskSecret(partner.signingSecret),
          describeAllowIps(partner),
          partner.country,
          partner.timeZone,
          partner.dni.onExhausted,
          partner.dni.fallbackNumber ?? '-',
          partner.showFullAnum ? '1' : '0',
          describeCustomFields(partner),
          shortRateLimit(partner.rateLimitPerMinute),
        ]);
        const header = [
          'ID',
          'NAME',
          'USERNAME',
          'SIGNING SECRET',
          'ALLOWED IPS',
          'COUNTRY',
          'TIME ZONE',
          'ON EXHAUSTED',
          'FALLBACK',
          'FULL ANUM',
          'CUSTOM FIELDS',
          'RATE LIMIT',
        ];
        for (const line of formatTable(header, rows)) context.output.out(line);
      });
    });

  program
    .command('custom-field:define')
    .description("define a custom field on a partner's customers or sources (defining it again is fine)")
    .requiredOption('--partner <advId>', 'partner name')
    .requiredOption('--entity <entity>', 'customer or source')
    .requiredOption('--field <name>', 'field name, e.g. custom_1')
    .action(async (options: { partner: string; entity: string; field: string }) => {
      await context.withServices(async ({ partners }) => {
        const result = await partners.defineCustomField(options.partner, options.entity, options.field);
        const where = `${result.entity} field ${result.field} of partner ${result.partner.name}`;
        context.output.out(
          result.created ? `Defined ${where}` : `Already defined: ${where}; nothing changed`,
        );
      });
    });
}

/** What scripts get from `partner:list --json`: no HA1, the signing secret shortened. */
function toListedPartner(partner: Partner): Record<string, unknown> {
  return {
    id: partner.id,
    name: partner.name,
    username: partner.digestUsername,
    signingSecret: maskSecret(partner.signingSecret),
    allowIps: partner.allowIps,
    country: partner.country,
    timeZone: partner.timeZone,
    dni: partner.dni,
    showFullAnum: partner.showFullAnum,
    cdrRetentionMonths: partner.cdrRetentionMonths,
    anumMaskAfterDays: partner.anumMaskAfterDays,
    rateLimitPerMinute: partner.rateLimitPerMinute,
    pool: partner.pool,
    customFields: partner.customFields,
  };
}

/** The RATE LIMIT column: requests per minute, `none`, or `default` (RATE_LIMIT_PER_MINUTE). */
function shortRateLimit(perMinute: number | null): string {
  if (perMinute === null) return 'default';
  return perMinute === 0 ? 'none' : String(perMinute);
}
