import { freePort } from '@trackline/test-harness';
import { readRules, RULES_FILE } from './rules-file';
import { dashboardQueries } from './test-support/dashboard-queries';
import {
  documentedMetrics,
  exportedMetrics,
  isDefaultMetric,
  type MetricTable,
} from './test-support/documented-metrics';
import { describeWithBinary, runningUnderCi } from './test-support/prometheus-binaries';
import { startPrometheus, waitFor, type PrometheusServer } from './test-support/prometheus-server';
import { missingBuiltFiles, startTracklineStack, type TracklineStack } from './test-support/trackline-stack';

// A demo pool number (`pnpm start` gives the demo partner +4791000001–10).
const POOL_NUMBER = '+4791000001';
// Scrapes and rule evaluations every second, so a few seconds of traffic give every rate two samples.
const INTERVAL_SECONDS = 1;
const RESULTS_TIMEOUT_MS = 30_000;
jest.setTimeout(180_000);

const missing = missingBuiltFiles();
if (missing.length > 0) {
  const message = `the services are not built (${missing.join(', ')}); run pnpm build`;
  if (runningUnderCi()) throw new Error(message);
  console.warn(`Skipping the Prometheus integration test: ${message}.`);
}
const describeRunnable = missing.length === 0 ? describeWithBinary('prometheus') : describe.skip;

interface TargetsData {
  activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }>;
}
interface RulesData {
  groups: Array<{
    name: string;
    rules: Array<{ name: string; health: string; lastError?: string; lastEvaluation: string }>;
  }>;
}
interface QueryData {
  resultType: string;
  result: Array<{ metric: Record<string, string>; value: [number, string] }>;
}

/**
 * A real Prometheus scraping both services as `pnpm start` runs them, with the rules of
 * infra/monitoring/rules loaded: the rules evaluate on the series the services really export, and
 * every query of the dashboards returns series (docs/operations.md, Alerts and runbooks).
 */
describeRunnable('Prometheus scraping both services, with the rules and the dashboards', () => {
  let stack: TracklineStack | undefined;
  let prometheus: PrometheusServer | undefined;
  const jobs = ['trackline-management', 'trackline-replacement'];

  beforeAll(async () => {
    stack = await startTracklineStack();
    prometheus = await startPrometheus({
      port: await freePort(),
      intervalSeconds: INTERVAL_SECONDS,
      ruleFiles: [RULES_FILE],
      targets: [
        { job: 'trackline-management', address: `127.0.0.1:${stack.managementPort}`, scheme: 'https' },
        { job: 'trackline-replacement', address: `127.0.0.1:${stack.replacementPort}`, scheme: 'http' },
      ],
    });
    const server = prometheus;
    await waitFor(
      async () => (await targets(server)).filter((target) => target.health === 'up').length === jobs.length,
      RESULTS_TIMEOUT_MS,
      () => `targets not up:\n${server.output()}`,
    );
    // After the first scrapes, so the counters' rates see the traffic between two samples.
    const running = stack;
    expect((await running.replaceNumbers()).body).toMatchObject({ success: true });
    expect(await running.route(POOL_NUMBER)).toMatchObject({ status: 200 });
    expect(await running.postCallRecord(POOL_NUMBER)).toMatchObject({ status: 201 });
    const trafficAt = Date.now() / 1000;
    // Two more evaluations of every rule after the traffic was scraped.
    await waitFor(
      async () =>
        (await server.api<RulesData>('rules')).groups.every((group) =>
          group.rules.every(
            (rule) => Date.parse(rule.lastEvaluation) / 1000 > trafficAt + 2 * INTERVAL_SECONDS,
          ),
        ),
      RESULTS_TIMEOUT_MS,
      () => 'the rules were not evaluated after the traffic',
    );
  });

  afterAll(async () => {
    await prometheus?.stop();
    await stack?.stop();
  });

  const targets = async (server: PrometheusServer) =>
    (await server.api<TargetsData>('targets', { state: 'active' })).activeTargets;

  it('scrapes both services: both targets up', async () => {
    const active = await targets(prometheus!);
    expect(active.map((target) => [target.labels.job, target.health, target.lastError]).sort()).toEqual(
      jobs.map((job) => [job, 'up', '']),
    );
  });

  it('loads every rule group of the rules file, every rule healthy', async () => {
    const loaded = (await prometheus!.api<RulesData>('rules')).groups;
    const expected = readRules().groups;
    const names = (groups: Array<{ name: string }>) => groups.map((group) => group.name).sort();
    expect(names(loaded)).toEqual(names(expected));
    for (const group of loaded) {
      expect(group.rules).toHaveLength(expected.find((g) => g.name === group.name)!.rules.length);
      for (const rule of group.rules)
        expect([group.name, rule.name, rule.health, rule.lastError ?? '']).toEqual([
          group.name,
          rule.name,
          'ok',
          '',
        ]);
    }
  });

  // Both recording-rule families feed the dashboards, so an empty SLO ratio fails here too.
  it.each(dashboardQueries().map((query) => [query.dashboard, query.panel, query.refId, query.expr]))(
    '%s, panel "%s" (%s): %s returns series',
    async (_dashboard, _panel, _refId, expr) => {
      let data: QueryData | undefined;
      await waitFor(
        async () => {
          data = await prometheus!.api<QueryData>('query', { query: expr });
          return data.result.length > 0;
        },
        RESULTS_TIMEOUT_MS,
        () => `no series for ${expr}: ${JSON.stringify(data)}`,
      );
      expect(data!.resultType).toBe('vector');
    },
  );

  it.each(['replacement', 'management'] as const)(
    'the %s service exports exactly the metrics docs/operations.md lists, with their types',
    async (service) => {
      const exported = exportedMetrics(await stack!.metricsText(service));
      const own = (table: MetricTable) =>
        [...table].filter(([name]) => !isDefaultMetric(name)).sort(([a], [b]) => a.localeCompare(b));
      expect(own(exported).length).toBeGreaterThan(0);
      expect(own(documentedMetrics()[service])).toEqual(own(exported));
      // The default metrics are there too, as the doc says.
      expect([...exported.keys()]).toEqual(
        expect.arrayContaining(['process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds']),
      );
    },
  );
});
