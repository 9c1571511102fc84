import type { ApiRecord, ApiResponse, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import type { SourceOverrideService } from './source-override';

/** One of a source's own settings as the partner API shows it. */
export interface SourceOverrideResource<Setting> {
  /** Under /sources/<source_id>/, e.g. `spam_policy`. */
  segment: string;
  names: ResourceNames;
  /** A PUT body into the setting; every 400 names its field. */
  parse(body: Record<string, unknown>): Setting;
  /** The record's fields beside `source_id`. */
  render(setting: Setting): ApiRecord;
}

/**
 * GET/PUT/DELETE /sources/<source_id>/<segment>: the setting, a PUT replacing it whole (a part left
 * out goes back to the partner's), a DELETE returning all of it to the partner's. Each answers the
 * record as it now stands.
 */
export function sourceOverrideRoutes<Setting>(
  resource: SourceOverrideResource<Setting>,
  service: SourceOverrideService<Setting>,
): RouteDefinition[] {
  const path = `/sources/:sourceId/${resource.segment}`;
  const response = (sourceId: string, setting: Setting): ApiResponse => ({
    kind: 'records',
    names: resource.names,
    records: [{ source_id: sourceId, ...resource.render(setting) }],
  });
  return [
    {
      method: 'GET',
      path,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        return response(sourceId, await service.get(partner.id, sourceId));
      },
    },
    {
      method: 'PUT',
      path,
      handle: async ({ partner, params, body }) => {
        const sourceId = params.sourceId ?? '';
        const setting = resource.parse(body);
        await service.set(partner.id, sourceId, setting);
        return response(sourceId, setting);
      },
    },
    {
      method: 'DELETE',
      path,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        await service.clear(partner.id, sourceId);
        return response(sourceId, service.partnersOwn);
      },
    },
  ];
}
