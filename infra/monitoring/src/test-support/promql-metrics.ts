/**
 * The words of PromQL the rules and dashboards use that are not metric names: functions,
 * aggregations, keywords. An expression with a word neither here nor a metric fails the test that
 * reads it, so a new function is added here on purpose rather than taken for a metric.
 */
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'by',
  'without',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'rate',
  'irate',
  'increase',
  'vector',
  'min_over_time',
  'max_over_time',
  'histogram_quantile',
]);

/** A histogram's series carry these suffixes after the documented name. */
const HISTOGRAM_SUFFIXES = ['_bucket', '_count', '_sum'];

/**
 * The metric and recording-rule names an expression selects. Label matchers, ranges, strings and
 * the label lists of `by (…)` / `without (…)` are dropped first; what is left is words and numbers.
 */
export function selectedNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\w+/g, ' ');
  const words = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(words.filter((word) => !PROMQL_WORDS.has(word)))];
}

/** The documented name a selected series belongs to: itself, or the histogram it is part of. */
export function documentedNameOf(name: string, documented: ReadonlySet<string>): string | undefined {
  if (documented.has(name)) return name;
  const suffix = HISTOGRAM_SUFFIXES.find((candidate) => name.endsWith(candidate));
  const base = suffix === undefined ? undefined : name.slice(0, -suffix.length);
  return base !== undefined && documented.has(base) ? base : undefined;
}
