import type { ApiResponse, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { renderCallIntelligence } from './call-intelligence-settings';
import type { Partner } from './partner';
import type { PartnersService } from './partners.service';

export const OWN_SETTINGS_NAMES: ResourceNames = { plural: 'settings', singular: 'setting' };

/**
 * GET/PUT /settings (docs/call-intelligence.md, Settings): the partner's own settings, one record —
 * recording answered calls and its consent announcement, transcription, automatic outcomes, the
 * redaction switches, the spam policy, and the pool defaults (docs/pool-sizing.md, Session lifetime
 * and hold-back). A PUT changes the fields it sends.
 */
export function ownSettingsRoutes(
  partners: Pick<PartnersService, 'ownSettings' | 'updateOwnSettings'>,
): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/settings',
      handle: async ({ partner }) => response(await partners.ownSettings(partner.id)),
    },
    {
      method: 'PUT',
      path: '/settings',
      handle: async ({ partner, body }) => response(await partners.updateOwnSettings(partner.id, body)),
    },
  ];
}

function response(partner: Partner): ApiResponse {
  return {
    kind: 'records',
    names: OWN_SETTINGS_NAMES,
    records: [
      {
        ...renderCallIntelligence(partner.intelligence),
        spam_policy: partner.spam.policy,
        spam_threshold: String(partner.spam.threshold),
        session_lifetime_seconds: String(partner.dni.sessionTtlSeconds),
        hold_back_seconds: String(partner.dni.holdBackSeconds),
      },
    ],
  };
}
