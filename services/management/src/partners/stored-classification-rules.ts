import { parseClassificationRules, type ClassificationRules } from '@trackline/domain';

/**
 * Rules as stored on a partner or a source (checked when they were put); null when there are none,
 * and unreadable ones count as none, so the rules below them apply (docs/call-intelligence.md).
 */
export function readStoredClassificationRules(value: unknown): ClassificationRules | null {
  if (value === null || value === undefined) return null;
  try {
    return parseClassificationRules(value);
  } catch {
    return null;
  }
}
