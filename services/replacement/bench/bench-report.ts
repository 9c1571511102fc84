import type { LoadResult } from './bench-load';
import type { Workload } from './bench-fixtures';

/** `bare` runs the service's own script; `minimal` the minimal allocation (minimal-server.ts). */
export type ServerName = 'bare' | 'minimal' | 'service';
export type Mode = 'saturation' | 'rate';

export interface PhaseResult extends LoadResult {
  server: ServerName;
  workload: Workload;
  mode: Mode;
  connections: number;
  offeredRate: number | null;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/**
 * docs/benchmarks.md, Targets: throughput ≥ 0.5 × bare; processing p99 ≤ 5 ms and client p99 ≤ 2 × bare at
 * the fixed rate.
 */
export function checkTargets(phases: PhaseResult[]): TargetCheck[] {
  const find = (server: ServerName, workload: Workload, mode: Mode): PhaseResult | undefined =>
    phases.find((p) => p.server === server && p.workload === workload && p.mode === mode);
  const checks: TargetCheck[] = [];
  for (const workload of ['new', 'existing'] as const) {
    const bareMax = find('bare', workload, 'saturation');
    const serviceMax = find('service', workload, 'saturation');
    if (bareMax && serviceMax) {
      const ratio = serviceMax.requestsPerSecond / bareMax.requestsPerSecond;
      checks.push({
        target: `${workload} sessions: service throughput ≥ 0.5 × bare`,
        measured: `${ratio.toFixed(2)} × (${round(serviceMax.requestsPerSecond)} vs ${round(bareMax.requestsPerSecond)} req/s)`,
        met: ratio >= 0.5,
      });
    }
    const bareRate = find('bare', workload, 'rate');
    const serviceRate = find('service', workload, 'rate');
    if (serviceRate) {
      checks.push({
        target: `${workload} sessions at ${serviceRate.offeredRate} req/s: service processing p99 ≤ 5 ms`,
        measured: ms(serviceRate.processing.p99),
        met: serviceRate.processing.p99 <= 5,
      });
    }
    if (bareRate && serviceRate) {
      const ratio = serviceRate.latency.p99 / bareRate.latency.p99;
      checks.push({
        target: `${workload} sessions at ${serviceRate.offeredRate} req/s: service client p99 ≤ 2 × bare`,
        measured: `${ratio.toFixed(2)} × (${ms(serviceRate.latency.p99)} vs ${ms(bareRate.latency.p99)})`,
        met: ratio <= 2,
      });
    }
  }
  return checks;
}

export function phaseTable(phases: PhaseResult[]): string {
  const header = [
    'phase',
    'server',
    'req/s',
    'ok %',
    'client p50',
    'client p99',
    'proc p50',
    'proc p99',
    'failures',
  ];
  const rows = phases.map((p) => [
    `${p.workload} ${p.mode === 'rate' ? `@${p.offeredRate}/s` : 'max'} (${p.connections} conn)`,
    p.server,
    String(round(p.requestsPerSecond)),
    p.requests === 0 ? '-' : ((100 * p.succeeded) / p.requests).toFixed(2),
    ms(p.latency.p50),
    ms(p.latency.p99),
    ms(p.processing.p50),
    ms(p.processing.p99),
    Object.entries(p.failures)
      .map(([reason, count]) => `${reason}: ${count}`)
      .join('; ') || 'none',
  ]);
  return table([header, ...rows]);
}

export function targetTable(checks: TargetCheck[]): string {
  return table([
    ['target', 'measured', 'met'],
    ...checks.map((c) => [c.target, c.measured, c.met ? 'yes' : 'NO']),
  ]);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]): string => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

function round(value: number): number {
  return Math.round(value);
}
