import type { PhaseResult } from '@trackline/replacement/dist-test/bench';
import { CUSTOMER_SEEN_RESEND_MS } from '@trackline/contracts';
import {
  checkSystemTargets,
  commandDelta,
  parseCommandStats,
  perCall,
  resendPeriodsBegun,
  type DownstreamCost,
} from './system-bench-report';

const INFO = [
  '# Commandstats',
  'cmdstat_evalsha:calls=120,usec=2400,usec_per_call=20.00,rejected_calls=0,failed_calls=0',
  'cmdstat_hget:calls=5,usec=3,usec_per_call=0.60,rejected_calls=0,failed_calls=0',
  '',
].join('\r\n');

function phase(
  server: PhaseResult['server'],
  workload: PhaseResult['workload'],
  mode: PhaseResult['mode'],
  rps: number,
  p99 = 1,
): PhaseResult {
  const percentiles = { p50: 1, p99, max: p99, samples: 100 };
  return {
    server,
    workload,
    mode,
    connections: 10,
    offeredRate: mode === 'rate' ? 1000 : null,
    durationSeconds: 10,
    requests: rps * 10,
    requestsPerSecond: rps,
    succeeded: rps * 10,
    failures: {},
    latency: percentiles,
    processing: percentiles,
  };
}

describe('whole-system bench arithmetic', () => {
  it('reads calls and usec per command from INFO commandstats and takes differences', () => {
    const before = parseCommandStats(INFO);
    expect(before.get('evalsha')).toEqual({ calls: 120, usec: 2400 });
    const after = parseCommandStats(INFO.replace('calls=120,usec=2400', 'calls=220,usec=3900'));
    const delta = commandDelta(before, after, 'evalsha');
    expect(delta).toEqual({ calls: 100, usec: 1500 });
    expect(perCall(delta)).toBe(15);
    expect(commandDelta(before, after, 'xadd')).toEqual({ calls: 0, usec: 0 });
  });

  it('checks each raised target against its own threshold', () => {
    const phases = [
      phase('minimal', 'new', 'saturation', 1000),
      phase('service', 'new', 'saturation', 760),
      phase('minimal', 'existing', 'saturation', 1000),
      phase('service', 'existing', 'saturation', 790),
    ];
    const checks = checkSystemTargets(
      phases,
      [
        {
          server: 'service',
          workload: 'new',
          calls: 10,
          usec: 300,
          cpuUsec: 400,
          serverCpuUsec: 900,
          managementCpuUsec: 10,
        },
        {
          server: 'service',
          workload: 'existing',
          calls: 10,
          usec: 151,
          cpuUsec: 300,
          serverCpuUsec: 800,
          managementCpuUsec: 10,
        },
      ],
      [
        {
          workload: 'new',
          requests: 2000,
          events: 0,
          postgresWrites: 0,
          customerScans: 0,
          transactions: 40,
          resendPeriodsBegun: 0,
        },
      ],
    );
    expect(checks.map((c) => [c.target.split(':')[0], c.met])).toEqual([
      ['new sessions', true],
      ['new sessions', true],
      ['new sessions, one unchanged customer', true],
      ['existing sessions', false],
      ['existing sessions', false],
    ]);
  });
});

describe('the zero-write target and the hourly re-send', () => {
  const hour = CUSTOMER_SEEN_RESEND_MS;
  const cost = (overrides: Partial<DownstreamCost>): DownstreamCost => ({
    workload: 'existing',
    requests: 100_000,
    events: 0,
    postgresWrites: 0,
    customerScans: 0,
    transactions: 30,
    resendPeriodsBegun: 0,
    ...overrides,
  });
  const verdict = (overrides: Partial<DownstreamCost>) =>
    checkSystemTargets([], [], [cost(overrides)]).find((c) => c.target.includes('unchanged customer'))!;

  it('counts the periods that begin within the run', () => {
    expect(resendPeriodsBegun(10 * hour + 1, 10 * hour + 5_000)).toBe(0);
    expect(resendPeriodsBegun(10 * hour - 1_000, 10 * hour + 5_000)).toBe(1);
    expect(resendPeriodsBegun(10 * hour - 1, 12 * hour - 1)).toBe(2);
  });

  it('allows the one event and its upsert per period begun, never a row written', () => {
    expect(verdict({}).met).toBe(true);
    expect(verdict({ events: 1, customerScans: 3 }).met).toBe(false);
    const resent = verdict({ events: 1, customerScans: 3, resendPeriodsBegun: 1 });
    expect(resent.met).toBe(true);
    expect(resent.measured).toContain('1 hourly re-send period began');
    expect(verdict({ events: 2, customerScans: 6, resendPeriodsBegun: 1 }).met).toBe(false);
    expect(verdict({ events: 0, customerScans: 1, resendPeriodsBegun: 1 }).met).toBe(false);
    expect(verdict({ events: 1, customerScans: 3, postgresWrites: 1, resendPeriodsBegun: 1 }).met).toBe(
      false,
    );
  });
});
