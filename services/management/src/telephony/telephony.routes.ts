import { ValidationError } from '@trackline/domain';
import { ingestResponse } from '../cdrs/cdr-ingestion-response';
import type { CdrIngestionService } from '../cdrs/cdr-ingestion.service';
import { splitCdrBody } from '../cdrs/cdrs.dto';
import { parseGreetingRecording } from '../greetings/greetings.dto';
import type { GreetingsService } from '../greetings/greetings.service';
import type { SwitchRouteDefinition } from '../http/route-definition';

// Base64 is 4/3 of the audio; 10 MiB of audio plus the JSON around it.
const BODY_LIMIT_BYTES = 14 * 1024 * 1024;

export interface TelephonyDependencies {
  greetings: GreetingsService;
  /** POST /telephony/cdrs; the route exists only when given. */
  cdrs?: Pick<CdrIngestionService, 'ingest'>;
  /** TELEPHONY_TOKEN; when unset every request is refused with 401. */
  token: string | undefined;
}

/**
 * The switch's endpoints (docs/switch.md), authenticated by the bearer token only: route
 * definitions for the one registration (http/mount-routes.ts), outside the partner API (no
 * digest, no IP allowlist, no version segment).
 */
export function telephonyRoutes(dependencies: TelephonyDependencies): SwitchRouteDefinition[] {
  const { token } = dependencies;
  const routes: SwitchRouteDefinition[] = [
    {
      method: 'POST',
      path: '/telephony/greetings',
      access: 'switch',
      token,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      handle: async ({ body, now, log }) => {
        const recording = parseGreetingRecording(jsonObject(body));
        const greeting = await dependencies.greetings.record(recording.recordPin, recording.sounddata, now);
        log.info({ vmGreetingId: greeting.id, bytes: greeting.datalength }, 'voicemail greeting recorded');
        return {
          kind: 'json',
          body: {
            vm_greeting_id: greeting.id,
            customer_id: greeting.customerId,
            datalength: String(greeting.datalength),
          },
        };
      },
    },
  ];
  const cdrs = dependencies.cdrs;
  if (cdrs !== undefined) {
    routes.push({
      method: 'POST',
      path: '/telephony/cdrs',
      access: 'switch',
      token,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      body: 'records',
      handle: async ({ body, now, log }) => {
        const { records, batch } = splitCdrBody(body);
        const outcomes = await cdrs.ingest(records, now);
        const failed = outcomes.filter((outcome) => !outcome.ok).length;
        log.info({ records: records.length, failed }, 'call records ingested');
        for (const outcome of outcomes) {
          if (!outcome.ok && outcome.cause !== undefined)
            log.error(
              { err: outcome.cause, callId: outcome.callId, reason: outcome.reason },
              'call record not stored',
            );
        }
        const answer = ingestResponse(outcomes, batch);
        return { kind: 'json', status: answer.status, body: answer.body };
      },
    });
  }
  return routes;
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}
