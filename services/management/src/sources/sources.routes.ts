import type { ApiResponse } from '../http/api-response';
import type { AuthenticatedPartner, RouteDefinition } from '../http/route-definition';
import { SOURCE_NAMES, toSourceRecord } from './source-record';
import type { Source } from './source';
import {
  parseCreateSource,
  parseSourceListQuery,
  parseUpdateSource,
  type SourceParsing,
} from './sources.dto';
import type { SourcesService } from './sources.service';

/** GET/POST /sources and GET/PUT/DELETE /sources/:sourceId (seed "Operations", docs/partner-api.md). */
export function sourceRoutes(service: SourcesService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/sources',
      handle: async ({ partner, query }) => {
        const listQuery = parseSourceListQuery(query);
        const { sources, total } = await service.list(partner.id, listQuery);
        return {
          kind: 'paged',
          names: SOURCE_NAMES,
          records: sources.map((source) => toSourceRecord(source, partner.customFields.source)),
          total,
          page: listQuery.page,
          pageSize: listQuery.pageSize,
        };
      },
    },
    {
      method: 'POST',
      path: '/sources',
      handle: async ({ partner, body, now }) => {
        const input = parseCreateSource(body, parsing(partner));
        return sourcesResponse(partner, [await service.create(partner.id, input, now)]);
      },
    },
    {
      method: 'GET',
      path: '/sources/:sourceId',
      handle: async ({ partner, params }) =>
        sourcesResponse(partner, [await service.get(partner.id, params.sourceId ?? '')]),
    },
    {
      method: 'PUT',
      path: '/sources/:sourceId',
      handle: async ({ partner, params, body }) => {
        const changes = parseUpdateSource(body, parsing(partner));
        return sourcesResponse(partner, [await service.update(partner.id, params.sourceId ?? '', changes)]);
      },
    },
    {
      method: 'DELETE',
      path: '/sources/:sourceId',
      // Answers with the closed record: status closed, destnr kept (held back 30 days).
      handle: async ({ partner, params, now }) =>
        sourcesResponse(partner, [await service.close(partner.id, params.sourceId ?? '', now)]),
    },
  ];
}

function parsing(partner: AuthenticatedPartner): SourceParsing {
  return { country: partner.country, customFieldNames: partner.customFields.source };
}

function sourcesResponse(partner: AuthenticatedPartner, sources: Source[]): ApiResponse {
  return {
    kind: 'records',
    names: SOURCE_NAMES,
    records: sources.map((source) => toSourceRecord(source, partner.customFields.source)),
  };
}
