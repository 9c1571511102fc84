import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { PROMETHEUS_RULE_FILE, prometheusRuleManifest } from './prometheus-rule';
import { readRules, RULES_FILE } from './rules-file';

describe('the PrometheusRule of the prometheus-operator overlay', () => {
  it('is generated from the rules file, unchanged since (else: pnpm build && pnpm --filter @trackline/monitoring generate)', () => {
    expect(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')).toBe(
      prometheusRuleManifest(readFileSync(RULES_FILE, 'utf8')),
    );
  });

  it('holds exactly the groups Prometheus loads from the rules file', () => {
    const manifest = parse(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')) as { kind: string; spec: unknown };
    expect(manifest.kind).toBe('PrometheusRule');
    expect(manifest.spec).toEqual({ groups: readRules().groups });
  });
});
