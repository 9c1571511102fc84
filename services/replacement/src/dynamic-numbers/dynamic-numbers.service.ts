import { randomBytes } from 'node:crypto';
import type { CustomerSeenEvent, PartnerConfig } from '@trackline/contracts';
import { ForbiddenError, verifySignature } from '@trackline/domain';
import { NotImplementedError } from '../http/replacement-errors';
import type { PartnerConfigStore } from '../partners/partner-config.store';
import {
  assertProjectionsComplete,
  type ProjectionGenerationStore,
} from '../partners/projection-generation.store';
import type { NumberPoolStore } from '../pools/number-pool.store';
import {
  parseJsonBody,
  parseReplacementRequest,
  readAdvId,
  type ReplacementRequest,
} from './dynamic-numbers.request';
import { successBody, type ReplacementSuccess } from './dynamic-numbers.response';
import { InvalidRequestError } from '../http/replacement-errors';
import { nationalDisplay, parseNumbersOnPage, type NumberOnPage } from './numbers-on-page';
import type { TrackingNumbersStore } from './tracking-numbers.store';

/** Stands in for the signing secret of an advId nobody has; no client can know it. */
const UNKNOWN_PARTNER_SECRET = randomBytes(32).toString('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DynamicNumbersDeps {
  partners: PartnerConfigStore;
  /** Whether an unknown advId is unknown, or not projected yet (docs/redis-keys.md, Projection generation). */
  generations: ProjectionGenerationStore;
  pools: NumberPoolStore;
  newSessionId: () => string;
  /** Told, per allocation, whether it started a session (metrics). */
  sessions?: { session(isNew: boolean): void };
  /** Refuses numbers on the page that are tracking numbers (no call loops). */
  trackingNumbers?: TrackingNumbersStore;
  /** The signature check; the domain's HMAC-SHA1 unless a test counts its calls. */
  verify?: typeof verifySignature;
}

/**
 * One replacement request, in the order that gives away nothing to an unsigned caller: JSON and
 * advId (needed to find the secret), then the signature, then every other check, then one
 * allocation round trip.
 */
export class DynamicNumbersService {
  constructor(private readonly deps: DynamicNumbersDeps) {}

  async replace(rawBody: Buffer, signature: string | undefined, now: number): Promise<ReplacementSuccess> {
    const body = parseJsonBody(rawBody);
    const advId = readAdvId(body);
    const partner = await this.deps.partners.find(advId);
    // Unknown partner and bad signature answer alike, so advIds cannot be probed (docs/architecture.md, Probing by timing) — in
    // time too: an unknown advId's body is checked against a random secret, the same HMAC work.
    const secret = partner === null ? UNKNOWN_PARTNER_SECRET : partner.signingSecret;
    const signed = (this.deps.verify ?? verifySignature)(secret, rawBody, signature?.toLowerCase());
    if (partner === null || !signed) {
      // While Redis is being rebuilt an unknown advId may be a partner not projected yet: 503, the
      // partner did nothing wrong. Both refusals ask (a cached read), so neither takes longer.
      const complete = assertProjectionsComplete(this.deps.generations);
      if (partner === null) await complete;
      else await complete.catch(() => undefined);
      throw new ForbiddenError('Invalid signature');
    }
    const request = parseReplacementRequest(body, rawBody);
    const numbers = parseNumbersOnPage(request.numbers, partner.country);
    await this.refuseTrackingNumbers(numbers);
    const newSessionId = this.deps.newSessionId();
    const result = await this.deps.pools.allocate({
      advId,
      now,
      sessionTtlSeconds: partner.sessionTtlSeconds,
      holdBackSeconds: partner.holdBackSeconds,
      onExhausted: partner.onExhausted,
      // A sessionId that is not one of ours cannot name a live session; it starts a new one.
      sessionId:
        request.sessionId !== null && UUID.test(request.sessionId) ? request.sessionId.toLowerCase() : null,
      newSessionId,
      context: {
        type: request.type,
        trackingId: request.trackingId,
        fullUrl: request.fullUrl,
        fullReferrer: request.fullReferrer,
        custnr: request.parameters.custnr ?? null,
        parameters: request.parameters,
      },
      customer: customerSeen(partner, request, now),
      numbersOnPage: numbers.map((n) => n.e164),
    });
    if (result.kind === 'no_pool') {
      // The partner's settings may still be cached while Redis lost the pool with the rest of its
      // data: "no pool" is the partner's answer only once the projections are complete again.
      await assertProjectionsComplete(this.deps.generations);
      throw new NotImplementedError('No number pool configured');
    }
    // The script answers with the prepared id only when it started a session (web or app).
    this.deps.sessions?.session(result.sessionId === newSessionId);
    return successBody(
      numbers.map((n, i) => {
        const e164 = result.numbers[i] ?? n.e164;
        return { numberOnPage: n.asSent, e164, local: nationalDisplay(e164) };
      }),
      result.sessionId,
    );
  }

  /**
   * No call loops (docs/numbers-and-sources.md): a tracking number shown as the page's answering
   * number would have calls to the pool number forwarded back into the platform.
   */
  private async refuseTrackingNumbers(numbers: readonly NumberOnPage[]): Promise<void> {
    if (this.deps.trackingNumbers === undefined) return;
    const tracking = await this.deps.trackingNumbers.trackingNumbersAmong(numbers.map((n) => n.e164));
    if (tracking.length === 0) return;
    const shown = numbers.find((n) => n.e164 === tracking[0])!;
    throw InvalidRequestError.invalid(
      'numbers',
      `${JSON.stringify(shown.asSent)} ${TRACKING_NUMBER_ON_PAGE_RULE}`,
    );
  }
}

/** The 400 rule for a number on the page that is a tracking number of the platform. */
export const TRACKING_NUMBER_ON_PAGE_RULE = 'is a tracking number; calls to it would loop';

function customerSeen(
  partner: PartnerConfig,
  request: ReplacementRequest,
  now: number,
): CustomerSeenEvent | null {
  const { custnr, custname, custemail } = request.parameters;
  if (custnr === undefined || custnr.trim() === '') return null;
  const event: CustomerSeenEvent = { advId: partner.advId, custnr, at: now };
  if (custname !== undefined) event.custname = custname;
  if (custemail !== undefined) event.custemail = custemail;
  return event;
}
