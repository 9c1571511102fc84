import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** infra/monitoring/, from src/ (tests) and dist/ (the generator) alike. */
export const MONITORING_DIR = path.resolve(__dirname, '..');
export const REPOSITORY_ROOT = path.resolve(MONITORING_DIR, '..', '..');
/** The one rules file: Prometheus loads it as is, the PrometheusRule is generated from it. */
export const RULES_FILE = path.join(MONITORING_DIR, 'rules', 'trackline.rules.yaml');

export interface RecordingRule {
  record: string;
  expr: string;
  labels?: Record<string, string>;
}

export interface AlertingRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export type Rule = RecordingRule | AlertingRule;

export interface RuleGroup {
  name: string;
  interval?: string;
  rules: Rule[];
}

export interface RulesFile {
  groups: RuleGroup[];
}

export function isAlertingRule(rule: Rule): rule is AlertingRule {
  return 'alert' in rule;
}

/** The rules file as Prometheus reads it (`groups:`); a file of another shape is refused here. */
export function parseRules(text: string): RulesFile {
  const parsed = parse(text) as unknown;
  const groups = (parsed as { groups?: unknown } | null)?.groups;
  if (!Array.isArray(groups) || groups.length === 0) throw new Error('a rules file needs a list of groups');
  for (const group of groups as RuleGroup[]) {
    if (typeof group.name !== 'string' || !Array.isArray(group.rules))
      throw new Error('every rule group needs a name and a list of rules');
  }
  return { groups: groups as RuleGroup[] };
}

export function readRules(file: string = RULES_FILE): RulesFile {
  return parseRules(readFileSync(file, 'utf8'));
}
