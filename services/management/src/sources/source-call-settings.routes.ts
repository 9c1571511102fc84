import type { ApiResponse, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import {
  NO_SOURCE_CALL_SETTINGS,
  parseSourceCallSettings,
  renderSourceCallSettings,
  type SourceCallSettings,
} from '../partners/call-intelligence-settings';
import type { SourceCallSettingsService } from './source-call-settings.service';

export const SOURCE_CALL_SETTINGS_NAMES: ResourceNames = {
  plural: 'call_settings',
  singular: 'call_setting',
};

const PATH = '/sources/:sourceId/call_settings';

/**
 * GET/PUT/DELETE /sources/<source_id>/call_settings (docs/telephony.md, Recording answered calls):
 * `record_calls`, `consent_announcement`, `transcription`, each null while the partner's applies.
 * A PUT replaces all three (a field left out goes back to the partner's); the parser is the
 * settings' own, so every 400 names its field.
 */
export function sourceCallSettingsRoutes(service: SourceCallSettingsService): RouteDefinition[] {
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
        const settings = parseSourceCallSettings(body);
        await service.set(partner.id, sourceId, settings);
        return response(sourceId, settings);
      },
    },
    {
      method: 'DELETE',
      path: PATH,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        await service.clear(partner.id, sourceId);
        return response(sourceId, NO_SOURCE_CALL_SETTINGS);
      },
    },
  ];
}

function response(sourceId: string, settings: SourceCallSettings): ApiResponse {
  return {
    kind: 'records',
    names: SOURCE_CALL_SETTINGS_NAMES,
    records: [{ source_id: sourceId, ...renderSourceCallSettings(settings) }],
  };
}
