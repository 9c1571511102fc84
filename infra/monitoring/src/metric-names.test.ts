import { isAlertingRule, readRules } from './rules-file';
import { dashboardQueries } from './test-support/dashboard-queries';
import { documentedMetrics, isDefaultMetric } from './test-support/documented-metrics';
import { documentedNameOf, selectedNames } from './test-support/promql-metrics';

const rules = readRules().groups.flatMap((group) => group.rules);
const recorded = new Set(rules.flatMap((rule) => ('record' in rule ? [rule.record] : [])));
const tables = documentedMetrics();
const documented = new Set([...tables.replacement.keys(), ...tables.management.keys()]);
// Prometheus's own series of each scrape.
const PROMETHEUS_SERIES = new Set(['up']);

const expressions = [
  ...rules.map((rule) => ({ where: `rule ${'alert' in rule ? rule.alert : rule.record}`, expr: rule.expr })),
  ...dashboardQueries().map((query) => ({
    where: `${query.dashboard}, panel "${query.panel}" (${query.refId})`,
    expr: query.expr,
  })),
];

describe('the metrics the rules and dashboards use', () => {
  it.each(expressions.map(({ where, expr }) => [where, expr]))(
    '%s: every metric it selects is in docs/operations.md, Metrics (or a recording rule)',
    (_where, expr) => {
      const names = selectedNames(expr);
      expect(names.length).toBeGreaterThan(0);
      const unknown = names.filter(
        (name) =>
          documentedNameOf(name, documented) === undefined &&
          !recorded.has(name) &&
          !isDefaultMetric(name) &&
          !PROMETHEUS_SERIES.has(name),
      );
      expect(unknown).toEqual([]);
    },
  );

  // An alert's operator looks at the dashboard next: what fired it should be drawn there (a
  // recording rule counts as the metrics it is computed from, so every SLO window need not be drawn).
  it.each(rules.filter(isAlertingRule).map((rule) => [rule.alert, rule.expr]))(
    'alert %s: every metric it selects is on a dashboard',
    (_alert, expr) => {
      const drawn = new Set(dashboardQueries().flatMap((query) => sourceMetrics(query.expr)));
      expect(sourceMetrics(expr).filter((name) => !drawn.has(name))).toEqual([]);
    },
  );
});

/** The exported metrics an expression reads, through the recording rules it selects. */
function sourceMetrics(expr: string): string[] {
  return selectedNames(expr).flatMap((name) => {
    const rule = rules.find((candidate) => 'record' in candidate && candidate.record === name);
    return rule === undefined ? [name] : sourceMetrics(rule.expr);
  });
}

describe('selectedNames', () => {
  it('finds the metrics, not the functions, labels, ranges or offsets', () => {
    expect(
      selectedNames(
        'sum by (status) (rate(trackline_http_requests_total{status="503", route=~"a|b"}[5m])) ' +
          '/ max(trackline_notification_outbox{status="dead"} offset 1h) > (14.4 * 0.001) ' +
          'or up{job="x"} == 0 or vector(0) and trackline_replacement:latency_slow:ratio_rate5m',
      ),
    ).toEqual([
      'trackline_http_requests_total',
      'trackline_notification_outbox',
      'up',
      'trackline_replacement:latency_slow:ratio_rate5m',
    ]);
  });

  it('takes a word PromQL has but this list lacks for a metric, so the metric test fails on it', () => {
    expect(selectedNames('clamp_min(trackline_pool_size, 0)')).toEqual(['clamp_min', 'trackline_pool_size']);
  });

  it('names a histogram by its documented name', () => {
    const names = new Set(['trackline_dynamic_number_processing_seconds']);
    expect(documentedNameOf('trackline_dynamic_number_processing_seconds_bucket', names)).toBe(
      'trackline_dynamic_number_processing_seconds',
    );
    expect(documentedNameOf('trackline_pool_size_bucket', names)).toBeUndefined();
  });
});
