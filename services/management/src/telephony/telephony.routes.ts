import {
  bearerTokenMatches,
  isTracklineError,
  MethodNotAllowedError,
  UnauthorizedError,
  ValidationError,
} from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ingestResponse } from '../cdrs/cdr-ingestion-response';
import type { CdrIngestionService } from '../cdrs/cdr-ingestion.service';
import { splitCdrBody } from '../cdrs/cdrs.dto';
import { isStoreUnreachable } from '../http/error-handler';
import { parseGreetingRecording } from '../greetings/greetings.dto';
import { checkRequestInput } from '../http/request-input';
import { parseQuery } from '../http/request-path';
import type { GreetingsService } from '../greetings/greetings.service';

/** Where the router is mounted: outside the partner API (no digest, no IP allowlist, no version). */
export const TELEPHONY_BASE_PATH = '/telephony';

// Base64 is 4/3 of the audio; 10 MiB of audio plus the JSON around it.
const BODY_LIMIT_BYTES = 14 * 1024 * 1024;

export interface TelephonyDependencies {
  greetings: GreetingsService;
  /** POST /telephony/cdrs; the route exists only when given. */
  cdrs?: Pick<CdrIngestionService, 'ingest'>;
  /** TELEPHONY_TOKEN; when unset every request is refused with 401. */
  token: string | undefined;
  log: Logger;
  /** The clock; the router reads it once per request. */
  clock?: () => Date;
}

/**
 * The switch's endpoints (docs/switch.md), authenticated by the bearer token only. Mount with
 * `app.use(TELEPHONY_BASE_PATH, telephonyRoutes(...))` behind the HTTPS check and before the
 * partner digest authentication, which must not see these paths.
 */
export function telephonyRoutes(dependencies: TelephonyDependencies): Router {
  const clock = dependencies.clock ?? (() => new Date());
  const router = express.Router();
  // Authentication comes before the body is read, so an unauthenticated client cannot make the
  // service parse megabytes.
  router.use((request: Request, _response: Response, next: NextFunction) => {
    if (!bearerTokenMatches(request.get('authorization'), dependencies.token)) {
      next(
        new UnauthorizedError('A valid bearer token (Authorization: Bearer <TELEPHONY_TOKEN>) is required'),
      );
      return;
    }
    next();
  });
  router.use(express.json({ limit: BODY_LIMIT_BYTES, strict: true }));
  // The partner API's edge rules for names and nesting (docs/architecture.md, Hardened edges).
  router.use((request: Request, _response: Response, next: NextFunction) => {
    checkRequestInput(parseQuery(request.originalUrl), request.body ?? {}, { values: false });
    next();
  });

  router.post('/greetings', async (request: Request, response: Response) => {
    const recording = parseGreetingRecording(jsonObject(request));
    const greeting = await dependencies.greetings.record(recording.recordPin, recording.sounddata, clock());
    dependencies.log.info(
      { vmGreetingId: greeting.id, bytes: greeting.datalength },
      'voicemail greeting recorded',
    );
    response.status(200).json({
      vm_greeting_id: greeting.id,
      customer_id: greeting.customerId,
      datalength: String(greeting.datalength),
    });
  });

  const cdrs = dependencies.cdrs;
  if (cdrs !== undefined) {
    router.post('/cdrs', async (request: Request, response: Response) => {
      if (!request.is('application/json')) {
        throw new ValidationError('body', 'must be JSON (Content-Type: application/json)');
      }
      const { records, batch } = splitCdrBody(request.body);
      const outcomes = await cdrs.ingest(records, clock());
      const failed = outcomes.filter((outcome) => !outcome.ok).length;
      dependencies.log.info({ records: records.length, failed }, 'call records ingested');
      for (const outcome of outcomes) {
        if (!outcome.ok && outcome.cause !== undefined)
          dependencies.log.error(
            { err: outcome.cause, callId: outcome.callId, reason: outcome.reason },
            'call record not stored',
          );
      }
      const answer = ingestResponse(outcomes, batch);
      response.status(answer.status).json(answer.body);
    });
  }

  // A known path with another method is 405, not a fall-through to the partner API's digest check.
  const paths = cdrs === undefined ? ['/greetings'] : ['/greetings', '/cdrs'];
  router.all(paths, () => {
    throw new MethodNotAllowedError(['POST']);
  });

  router.use((error: unknown, request: Request, response: Response, _next: NextFunction) => {
    const { status, message } = describeError(error);
    if (error instanceof MethodNotAllowedError) response.set('Allow', error.allow.join(', '));
    if (status >= 500)
      dependencies.log.error({ err: error, path: request.originalUrl }, 'telephony request failed');
    if (status === 401) response.set('WWW-Authenticate', 'Bearer realm="trackline-telephony"');
    response.status(status).json({ error: { status, message } });
  });
  return router;
}

function jsonObject(request: Request): Record<string, unknown> {
  const body: unknown = request.body;
  if (!request.is('application/json')) {
    throw new ValidationError('body', 'must be JSON (Content-Type: application/json)');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Body-parser errors carry a `status` and a `type`; our own errors carry their status. */
function describeError(error: unknown): { status: number; message: string } {
  if (isTracklineError(error)) return { status: error.status, message: error.message };
  if (isStoreUnreachable(error))
    return { status: 503, message: 'Service temporarily unavailable; retry later' };
  const parserError = error as { status?: number; type?: string };
  if (parserError.type === 'entity.parse.failed') return { status: 400, message: 'body: is not valid JSON' };
  if (parserError.type === 'entity.too.large') {
    return { status: 413, message: `body: must be at most ${BODY_LIMIT_BYTES} bytes` };
  }
  if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return { status: parserError.status, message: 'The request could not be read' };
  }
  return { status: 500, message: 'Internal server error' };
}
