import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROMETHEUS_RULE_FILE, prometheusRuleManifest } from './prometheus-rule';
import { REPOSITORY_ROOT, RULES_FILE } from './rules-file';

// `pnpm --filter @trackline/monitoring generate`: writes the overlay's PrometheusRule from the rules file.
writeFileSync(PROMETHEUS_RULE_FILE, prometheusRuleManifest(readFileSync(RULES_FILE, 'utf8')));
console.log(`wrote ${path.relative(REPOSITORY_ROOT, PROMETHEUS_RULE_FILE)}`);
