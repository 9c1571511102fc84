import { cdrReferenceByCallId, cdrReferenceById } from '../cdrs/cdr-reference.dto';
import type { ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { refuseUnknownQuery } from '../validation/query-parameters';
import { TRANSCRIPT_NAMES, toTranscriptRecord } from './transcript-record';
import type { TranscriptsService } from './transcripts.service';

/**
 * A call's transcript (docs/call-intelligence.md, API): `/cdrs/<cdr_id>/transcript` (also
 * `/cdrs/transcript?cdr_id=`) and `/cdrs/transcript?call_id=<call_id>`, JSON or XML.
 */
export function transcriptRoutes(service: TranscriptsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/cdrs/:cdrId/transcript',
      handle: async ({ partner, params, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.get(partner.id, cdrReferenceById(params)));
      },
    },
    {
      method: 'GET',
      path: '/cdrs/transcript',
      handle: async ({ partner, query }) =>
        answer(await service.get(partner.id, cdrReferenceByCallId(query, 'transcript'))),
    },
  ];
}

function answer({ cdr, transcript }: Awaited<ReturnType<TranscriptsService['get']>>): ApiResponse {
  return { kind: 'records', names: TRANSCRIPT_NAMES, records: [toTranscriptRecord(cdr, transcript)] };
}
