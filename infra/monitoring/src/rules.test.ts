import { readFileSync } from 'node:fs';
import { isAlertingRule, readRules } from './rules-file';
import { OPERATIONS_DOC } from './test-support/documented-metrics';
import { readRuleTestFile, ruleTestFiles } from './test-support/rule-tests';

const groups = readRules().groups;
const alerts = groups.flatMap((group) => group.rules.filter(isAlertingRule));
const testFiles = ruleTestFiles().map(readRuleTestFile);
const alertTests = testFiles.flatMap((file) => file.tests.flatMap((test) => test.alert_rule_test ?? []));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    found.add(
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return found;
}

describe('the alerts of infra/monitoring/rules', () => {
  it('are there, each name once', () => {
    expect(alerts.length).toBeGreaterThan(0);
    expect(new Set(alerts.map((alert) => alert.alert)).size).toBe(alerts.length);
  });

  it.each(alerts.map((alert) => [alert.alert, alert]))(
    '%s: severity page or ticket, a summary, a description and a runbook in docs/operations.md',
    (name, alert) => {
      expect(['page', 'ticket']).toContain(alert.labels?.severity);
      expect(alert.annotations?.summary).toEqual(expect.any(String));
      expect(alert.annotations?.description).toEqual(expect.any(String));
      expect(alert.annotations?.runbook_url).toBe(`docs/operations.md#${name.toLowerCase()}`);
      expect([...anchors(readFileSync(OPERATIONS_DOC, 'utf8'))]).toContain(name.toLowerCase());
    },
  );

  // promtool checks what each case expects; this checks each alert has both kinds of case.
  it.each(alerts.map((alert) => [alert.alert]))(
    '%s: a promtool test where it fires and one where it stays quiet',
    (name) => {
      const cases = alertTests.filter((test) => test.alertname === name);
      expect(cases.some((test) => (test.exp_alerts ?? []).length > 0)).toBe(true);
      expect(cases.some((test) => (test.exp_alerts ?? []).length === 0)).toBe(true);
    },
  );

  it('are tested with the recording rules evaluated first, in every test file', () => {
    for (const file of testFiles) {
      expect(file.rule_files).toEqual(['../rules/trackline.rules.yaml']);
      expect(file.group_eval_order).toEqual(groups.map((group) => group.name));
    }
  });
});
