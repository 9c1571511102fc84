import type { SourceSpamPolicy } from '@trackline/contracts';
import type { ApiResponse, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { parseSourceSpamPolicy } from './source-spam-policy.dto';
import type { SourceSpamPolicyService } from './source-spam-policy.service';

export const SOURCE_SPAM_POLICY_NAMES: ResourceNames = { plural: 'spam_policies', singular: 'spam_policy' };

const PATH = '/sources/:sourceId/spam_policy';

/**
 * GET/PUT/DELETE /sources/<source_id>/spam_policy (docs/spam.md, Per source). The record's
 * `policy` is null while the partner's policy applies, `threshold` null while the partner's does.
 */
export function sourceSpamPolicyRoutes(service: SourceSpamPolicyService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: PATH,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        return response(sourceId, await service.get(partner.id, sourceId));
      },
    },
    {
      method: 'PUT',
      path: PATH,
      handle: async ({ partner, params, body }) => {
        const sourceId = params.sourceId ?? '';
        const spamPolicy = parseSourceSpamPolicy(body);
        await service.set(partner.id, sourceId, spamPolicy);
        return response(sourceId, spamPolicy);
      },
    },
    {
      method: 'DELETE',
      path: PATH,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        await service.set(partner.id, sourceId, null);
        return response(sourceId, null);
      },
    },
  ];
}

function response(sourceId: string, spamPolicy: SourceSpamPolicy | null): ApiResponse {
  return {
    kind: 'records',
    names: SOURCE_SPAM_POLICY_NAMES,
    records: [
      {
        source_id: sourceId,
        policy: spamPolicy?.policy ?? null,
        threshold: spamPolicy?.threshold == null ? null : String(spamPolicy.threshold),
      },
    ],
  };
}
