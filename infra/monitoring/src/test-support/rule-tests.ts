import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { MONITORING_DIR } from '../rules-file';

export const RULE_TESTS_DIR = path.join(MONITORING_DIR, 'tests');

/** The promtool unit test files, infra/monitoring/tests/*.yaml. */
export function ruleTestFiles(): string[] {
  return readdirSync(RULE_TESTS_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => path.join(RULE_TESTS_DIR, name));
}

export interface RuleTestFile {
  rule_files: string[];
  group_eval_order?: string[];
  tests: Array<{
    name?: string;
    alert_rule_test?: Array<{ eval_time: string; alertname: string; exp_alerts?: unknown[] }>;
  }>;
}

export function readRuleTestFile(file: string): RuleTestFile {
  return parse(readFileSync(file, 'utf8')) as RuleTestFile;
}
