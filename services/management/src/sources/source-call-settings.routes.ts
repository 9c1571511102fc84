import type { ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import {
  parseSourceCallSettings,
  renderSourceCallSettings,
  type SourceCallSettings,
} from '../partners/call-intelligence-settings';
import type { SourceOverrideService } from './source-override';
import { sourceOverrideRoutes } from './source-override.routes';

export const SOURCE_CALL_SETTINGS_NAMES: ResourceNames = {
  plural: 'call_settings',
  singular: 'call_setting',
};

/**
 * GET/PUT/DELETE /sources/<source_id>/call_settings (docs/telephony.md, Recording answered calls):
 * `record_calls`, `consent_announcement`, `transcription`, each null while the partner's applies.
 * The parser is the settings' own, so every 400 names its field.
 */
export function sourceCallSettingsRoutes(
  service: SourceOverrideService<SourceCallSettings>,
): RouteDefinition[] {
  return sourceOverrideRoutes(
    {
      segment: 'call_settings',
      names: SOURCE_CALL_SETTINGS_NAMES,
      parse: parseSourceCallSettings,
      render: renderSourceCallSettings,
    },
    service,
  );
}
