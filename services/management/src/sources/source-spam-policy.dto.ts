import type { SourceSpamPolicy } from '@trackline/contracts';
import { isSpamPolicy, SPAM_POLICIES, ValidationError, type SpamPolicy } from '@trackline/domain';
import { parseSpamThreshold } from '../partners/partner-settings.dto';
import { Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';

/** PUT /sources/<source_id>/spam_policy (docs/spam.md, Per source). */
export class SourceSpamPolicyDto {
  @Parsed('required', parsePolicy)
  policy?: string;

  @Parsed('optional', parseThreshold)
  threshold?: string;
}

/** Without `threshold`, the source's calls are judged by the partner's threshold. */
export function parseSourceSpamPolicy(body: Record<string, unknown>): SourceSpamPolicy {
  const dto = validateDto(SourceSpamPolicyDto, body);
  return {
    policy: parsePolicy(dto.policy),
    threshold: dto.threshold === undefined ? null : parseThreshold(dto.threshold),
  };
}

function parsePolicy(value: unknown): SpamPolicy {
  if (!isSpamPolicy(value)) throw new ValidationError('policy', `must be one of ${SPAM_POLICIES.join(', ')}`);
  return value;
}

function parseThreshold(value: unknown): number {
  return parseSpamThreshold('threshold', typeof value === 'number' ? String(value) : String(value ?? ''));
}
