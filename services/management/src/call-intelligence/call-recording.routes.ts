import { callIdProblem } from '@trackline/contracts';
import { audioContentType, byteRange, NotFoundError, ValidationError } from '@trackline/domain';
import type { CdrReference } from '../cdrs/cdr-outcomes.store';
import type { ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { refuseUnknownQuery } from '../validation/query-parameters';
import { isBigintId } from '../validation/record-id';
import type { CallRecordingDownloadsService } from './call-recording-downloads.service';

/**
 * A call's recording (docs/telephony.md, Recording answered calls): `/cdrs/<cdr_id>/recording`
 * and `/cdrs/recording?call_id=<call_id>`, the audio as stored (WAV or MP3), a single `Range`
 * served as 206 so players can seek.
 */
export function callRecordingRoutes(service: CallRecordingDownloadsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/cdrs/:cdrId/recording',
      handle: async ({ partner, params, query, headers }) => {
        refuseUnknownQuery(query);
        const cdrId = params.cdrId;
        // An id no record can have names nothing (docs/partner-api.md, Errors).
        if (cdrId === undefined || !isBigintId(cdrId)) throw new NotFoundError(`call record ${cdrId}`);
        return download(await service.audio(partner.id, { cdrId }), headers.range);
      },
    },
    {
      method: 'GET',
      path: '/cdrs/recording',
      handle: async ({ partner, query, headers }) =>
        download(await service.audio(partner.id, byCallId(query)), headers.range),
    },
  ];
}

function byCallId(query: Record<string, string>): CdrReference {
  refuseUnknownQuery(query, ['call_id']);
  const callId = query.call_id;
  if (callId === undefined)
    throw new ValidationError('call_id', 'is required (or name the record: /cdrs/<cdr_id>/recording)');
  const problem = callIdProblem(callId);
  if (problem !== undefined) throw new ValidationError('call_id', problem);
  return { callId };
}

function download(audio: Buffer, range: string | undefined): ApiResponse {
  const contentType = audioContentType(audio);
  // Private: a recording is personal data (docs/privacy.md); no shared cache may keep it.
  const common = { 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, no-store' };
  const wanted = byteRange(range, audio.length);
  if (wanted.kind === 'unsatisfiable')
    return {
      kind: 'document',
      status: 416,
      contentType,
      headers: { ...common, 'Content-Range': `bytes */${audio.length}` },
      body: Buffer.alloc(0),
    };
  if (wanted.kind === 'part')
    return {
      kind: 'document',
      status: 206,
      contentType,
      headers: { ...common, 'Content-Range': `bytes ${wanted.start}-${wanted.end}/${audio.length}` },
      body: audio.subarray(wanted.start, wanted.end + 1),
    };
  return { kind: 'document', contentType, headers: common, body: audio };
}
