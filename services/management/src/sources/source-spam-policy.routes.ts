import type { SourceSpamPolicy } from '@trackline/contracts';
import type { ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { parseSourceSpamPolicy } from './source-spam-policy.dto';
import type { SourceOverrideService } from './source-override';
import { sourceOverrideRoutes } from './source-override.routes';

export const SOURCE_SPAM_POLICY_NAMES: ResourceNames = { plural: 'spam_policies', singular: 'spam_policy' };

/**
 * GET/PUT/DELETE /sources/<source_id>/spam_policy (docs/spam.md, Per source). The record's
 * `policy` is null while the partner's policy applies, `threshold` null while the partner's does.
 */
export function sourceSpamPolicyRoutes(
  service: SourceOverrideService<SourceSpamPolicy | null>,
): RouteDefinition[] {
  return sourceOverrideRoutes(
    {
      segment: 'spam_policy',
      names: SOURCE_SPAM_POLICY_NAMES,
      parse: parseSourceSpamPolicy,
      render: (spamPolicy) => ({
        policy: spamPolicy?.policy ?? null,
        threshold: spamPolicy?.threshold == null ? null : String(spamPolicy.threshold),
      }),
    },
    service,
  );
}
