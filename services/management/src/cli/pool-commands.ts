import type { Command } from 'commander';
import type { ManagementServices } from '../composition/management-services';
import type { PoolOverview } from '../numbers/number-pools.service';
import type { PoolResize } from '../numbers/pool-resizes.store';
import type { CliContext } from './cli-context';
import { formatTable } from './cli-output';

/** pool:update's options by the wire field of PUT /number_pools they set (docs/pool-sizing.md). */
const POOL_OPTIONS = {
  sessionLifetimeSeconds: [
    '--session-lifetime-seconds <seconds>',
    'session_lifetime_seconds',
    '60-86400; "" for the partner\'s',
  ],
  holdBackSeconds: ['--hold-back-seconds <seconds>', 'hold_back_seconds', '0-86400; "" for the partner\'s'],
  autoscaling: ['--autoscaling <flag>', 'autoscaling', '1 to grow and shrink the pool on its own, 0 to stop'],
  min: ['--min <numbers>', 'min', 'never shrink below this many numbers'],
  max: ['--max <numbers>', 'max', 'never grow above this many numbers (required with autoscaling 1)'],
  targetOverflow: [
    '--target-overflow <share>',
    'target_overflow',
    'Erlang B blocking to size for; "" for the partner\'s',
  ],
  maxMonthlyCost: [
    '--max-monthly-cost <amount>',
    'max_monthly_cost',
    'what the numbers may cost a month (required with autoscaling 1)',
  ],
  numberMonthlyPrice: [
    '--number-monthly-price <amount>',
    'number_monthly_price',
    "one number's monthly price at the carrier",
  ],
  country: ['--country <code>', 'country', 'where numbers are bought; "" for the partner\'s country'],
  areaCode: ['--area-code <digits>', 'area_code', 'buy numbers in this area code ("" for any)'],
  contains: [
    '--contains <pattern>',
    'contains',
    'buy numbers containing this pattern, * for any digit ("" for any)',
  ],
} as const;

type PoolOptions = { partner: string } & Partial<Record<keyof typeof POOL_OPTIONS, string>>;

export function addPoolCommands(program: Command, context: CliContext): void {
  const update = program
    .command('pool:update')
    .description(
      "change a partner's pool settings: session lifetime and hold-back (overriding the partner's), and " +
        'the autoscaling policy; options left out keep their value',
    )
    .requiredOption('--partner <advId>', 'partner name');
  for (const [flags, , description] of Object.values(POOL_OPTIONS)) update.option(flags, description);
  update.action(async (options: PoolOptions) => {
    await context.withServices(async (services) => {
      const partner = await services.partners.requireByName(options.partner);
      const input: Record<string, string> = {};
      for (const [key, [, field]] of Object.entries(POOL_OPTIONS)) {
        const value = options[key as keyof typeof POOL_OPTIONS];
        if (value !== undefined) input[field] = value;
      }
      const overview = await numberPools(services).updateSettings(partner, input, new Date());
      context.output.out(`Updated the pool of partner ${partner.name}:`);
      for (const line of describePool(overview)) context.output.out(line);
    });
  });

  program
    .command('pool:evaluate')
    .description("evaluate a partner's pool autoscaling now: buy or release numbers within its policy")
    .requiredOption('--partner <advId>', 'partner name')
    .option('--dry-run', 'only show what the evaluation would do; change nothing')
    .action(async (options: { partner: string; dryRun?: boolean }) => {
      await context.withServices(async (services) => {
        const partner = await services.partners.requireByName(options.partner);
        const autoscaler = poolAutoscaler(services);
        if (options.dryRun === true) {
          const plan = await autoscaler.plan(partner.id, new Date());
          context.output.out(`Dry run for partner ${partner.name}: ${plan.action}`);
          context.output.out(`  ${plan.reason}`);
          if (plan.addCount > 0) context.output.out(`  would buy ${plan.addCount} numbers`);
          if (plan.release.length > 0) context.output.out(`  would release ${plan.release.join(', ')}`);
          return;
        }
        const resize = await autoscaler.evaluate(partner.id, 'cli', new Date());
        context.output.out(`Evaluated the pool of partner ${partner.name}: ${resize.outcome}`);
        for (const line of describeResize(resize)) context.output.out(line);
        if (resize.outcome === 'failed') process.exitCode = 1;
      });
    });

  program
    .command('pool:resizes')
    .description("list a partner's pool evaluations, newest first")
    .requiredOption('--partner <advId>', 'partner name')
    .option('--limit <count>', 'at most this many (default 20)', '20')
    .action(async (options: { partner: string; limit: string }) => {
      await context.withServices(async (services) => {
        const partner = await services.partners.requireByName(options.partner);
        const resizes = await poolAutoscaling(services).resizes.list(partner.id, Number(options.limit) || 20);
        if (resizes.length === 0) {
          context.output.out(`Partner ${partner.name}'s pool has not been evaluated yet.`);
          return;
        }
        const rows = resizes.map((resize) => [
          resize.at.toISOString(),
          resize.trigger,
          resize.outcome,
          `${resize.fromSize} → ${resize.toSize}`,
          resize.errorCode ?? '-',
        ]);
        for (const line of formatTable(['AT', 'TRIGGER', 'OUTCOME', 'SIZE', 'CARRIER ERROR'], rows))
          context.output.out(line);
      });
    });
}

function numberPools(services: ManagementServices) {
  if (services.numberPools === undefined) throw new Error('the pool needs Redis, which the CLI did not get');
  return services.numberPools;
}

function poolAutoscaling(services: ManagementServices) {
  if (services.poolAutoscaling === undefined)
    throw new Error('pool autoscaling needs Redis, which the CLI did not get');
  return services.poolAutoscaling;
}

function poolAutoscaler(services: ManagementServices) {
  return poolAutoscaling(services).autoscaler;
}

function describePool(overview: PoolOverview): string[] {
  const policy = overview.settings.autoscaling;
  const from = (value: number | null) => (value === null ? "partner's" : "pool's");
  return [
    `  size:             ${overview.size}`,
    `  session lifetime: ${overview.timing.sessionLifetimeSeconds} s (${from(overview.settings.sessionLifetimeSeconds)})`,
    `  hold-back:        ${overview.timing.holdBackSeconds} s (${from(overview.settings.holdBackSeconds)})`,
    `  autoscaling:      ${policy.enabled ? 'on' : 'off'}, ${policy.min}–${policy.max ?? '-'} numbers, ` +
      `at most ${policy.maxMonthlyCost?.toFixed(2) ?? '-'} a month`,
    `  recommendation:   ${overview.recommendation.recommendedSize} numbers`,
  ];
}

function describeResize(resize: PoolResize): string[] {
  return [
    `  size:     ${resize.fromSize} → ${resize.toSize}`,
    ...(resize.added.length > 0 ? [`  bought:   ${resize.added.join(', ')}`] : []),
    ...(resize.released.length > 0 ? [`  released: ${resize.released.join(', ')}`] : []),
    `  why:      ${resize.reason}`,
  ];
}
