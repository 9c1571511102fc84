import path from 'node:path';
import { stringify } from 'yaml';
import { parseRules, REPOSITORY_ROOT, RULES_FILE } from './rules-file';

/** Where the prometheus-operator overlay keeps the generated PrometheusRule. */
export const PROMETHEUS_RULE_FILE = path.join(
  REPOSITORY_ROOT,
  'infra',
  'k8s',
  'overlays',
  'prometheus-operator',
  'prometheus-rule.yaml',
);

/**
 * The rules file wrapped in a prometheus-operator PrometheusRule: the operator's spec takes the same
 * `groups` Prometheus reads, so the rules are copied, not translated. Kustomize cannot read a file
 * into a custom resource's spec, hence a generated file, kept in sync by a test.
 */
export function prometheusRuleManifest(rulesText: string): string {
  const { groups } = parseRules(rulesText);
  const manifest = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'trackline',
      labels: { 'app.kubernetes.io/part-of': 'trackline' },
    },
    spec: { groups },
  };
  const source = path.relative(REPOSITORY_ROOT, RULES_FILE);
  const header = [
    `# Generated from ${source} by \`pnpm --filter @trackline/monitoring generate\` (after pnpm build).`,
    '# Do not edit: change the rules file and generate again; a test fails while the two differ.',
  ].join('\n');
  return `${header}\n${stringify(manifest, { lineWidth: 0 })}`;
}
