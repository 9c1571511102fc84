import {
  parseClassificationRules,
  parseJsonArray,
  RULE_LISTS,
  ValidationError,
  type ClassificationRules,
} from '@trackline/domain';

/**
 * A PUT of classification rules (docs/call-intelligence.md, API): each list a JSON array, or JSON
 * text in a form field (as other list fields, packages/domain json-input.ts); a list left out keeps
 * the list in force. The whole set is then checked by the domain's rules, every 400 naming the
 * field (`lead[3]`), and a keyword may hold no comma: the extended call record lists the spotted
 * ones comma-separated.
 */
export function parseClassificationRulesPut(
  body: Record<string, unknown>,
  inForce: ClassificationRules,
): ClassificationRules {
  const merged: Record<string, unknown> = { ...inForce };
  for (const [field, value] of Object.entries(body))
    merged[field] =
      typeof value === 'string' && (RULE_LISTS as readonly string[]).includes(field)
        ? parseJsonArray(field, value, Number.MAX_SAFE_INTEGER)
        : value;
  const rules = parseClassificationRules(merged);
  const comma = rules.keywords.findIndex((keyword) => keyword.includes(','));
  if (comma >= 0) throw new ValidationError(`keywords[${comma}]`, 'must not contain a comma');
  return rules;
}

/** The lists as the API renders them, in the order of RULE_LISTS. */
export function renderClassificationRules(rules: ClassificationRules): Record<string, string[]> {
  return Object.fromEntries(RULE_LISTS.map((list) => [list, [...rules[list]]]));
}
