import type { GoogleAdsIntegration } from '../integrations/integration';
import { PermanentExportError, postToGoogle, RetryableExportError, type GoogleAnswer } from './google-http';

export interface GoogleAdsEndpoints {
  /** CONVERSIONS_GOOGLE_ADS_URL. */
  baseUrl: string;
  /** CONVERSIONS_GOOGLE_ADS_API_VERSION, `v21`. */
  apiVersion: string;
  /** CONVERSIONS_OAUTH_TOKEN_URL. */
  tokenUrl: string;
  timeoutMs: number;
}

/** What became of each conversion of an upload, by its index. */
export type ConversionVerdict =
  | { outcome: 'accepted' }
  /** Google had it already (the order id, or the click and time): counted once, nothing to do. */
  | { outcome: 'already' }
  | { outcome: 'retry'; reason: string }
  | { outcome: 'refused'; reason: string };

// Google has it already: a repeat after an answer that never reached us.
const ALREADY_COUNTED = new Set([
  'ORDER_ID_ALREADY_IN_USE',
  'CLICK_CONVERSION_ALREADY_EXISTS',
  'DUPLICATE_ORDER_ID',
]);
// Google asks for a later try (a click less than six hours old, a new conversion action).
const TRY_LATER = new Set(['TOO_RECENT_EVENT', 'TOO_RECENT_CONVERSION_ACTION', 'TOO_RECENT_CALL']);

/**
 * Uploads click conversions for one partner (docs/conversions.md, Delivery): exchanges the refresh
 * token for an access token (kept until shortly before it expires), then one
 * `customers/<id>:uploadClickConversions` with `partialFailure: true`, and reads the partial
 * failure's errors back onto the conversions they name. Errors about the request as a whole throw.
 */
export class GoogleAdsUploader {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    private readonly endpoints: GoogleAdsEndpoints,
    private readonly clock: () => Date,
  ) {}

  async upload(
    partnerId: string,
    integration: GoogleAdsIntegration,
    conversions: readonly Record<string, unknown>[],
  ): Promise<ConversionVerdict[]> {
    const token = await this.accessToken(partnerId, integration);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
      'developer-token': integration.secrets.developerToken,
    };
    if (integration.loginCustomerId !== null) headers['login-customer-id'] = integration.loginCustomerId;
    const url = `${this.endpoints.baseUrl}/${this.endpoints.apiVersion}/customers/${integration.customerId}:uploadClickConversions`;
    const answer = await postToGoogle(
      url,
      { headers, body: JSON.stringify({ conversions, partialFailure: true }) },
      this.endpoints.timeoutMs,
    );
    if (answer.status === 401) this.tokens.delete(partnerId);
    if (answer.status !== 200) throw requestFailure('Google Ads upload', answer);
    return verdicts(answer.body, conversions.length);
  }

  private async accessToken(partnerId: string, integration: GoogleAdsIntegration): Promise<string> {
    const cached = this.tokens.get(partnerId);
    const now = this.clock().getTime();
    if (cached !== undefined && cached.expiresAt > now) return cached.token;
    const answer = await postToGoogle(
      this.endpoints.tokenUrl,
      {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: integration.oauthClientId,
          client_secret: integration.secrets.oauthClientSecret,
          refresh_token: integration.secrets.refreshToken,
        }).toString(),
      },
      this.endpoints.timeoutMs,
    );
    const body = answer.body as { access_token?: unknown; expires_in?: unknown; error?: unknown } | undefined;
    if (answer.status !== 200 || typeof body?.access_token !== 'string') {
      // A revoked grant or a wrong client is the partner's to mend; retried with backoff meanwhile.
      const error = typeof body?.error === 'string' ? body.error : `status ${answer.status}`;
      throw new RetryableExportError(`OAuth token exchange refused: ${error}`);
    }
    const lifetimeSeconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    // A minute's margin, so a token never expires between the check and the upload.
    this.tokens.set(partnerId, { token: body.access_token, expiresAt: now + (lifetimeSeconds - 60) * 1000 });
    return body.access_token;
  }
}

interface GoogleAdsError {
  errorCode?: Record<string, string>;
  message?: string;
  location?: { fieldPathElements?: { fieldName?: string; index?: number }[] };
}

/** Each conversion's verdict from a 200 answer's `partialFailureError`, by its index. */
export function verdicts(body: unknown, count: number): ConversionVerdict[] {
  const result: ConversionVerdict[] = Array.from({ length: count }, () => ({ outcome: 'accepted' }));
  const failure = (
    body as { partialFailureError?: { details?: { errors?: GoogleAdsError[] }[] } } | undefined
  )?.partialFailureError;
  for (const detail of failure?.details ?? [])
    for (const error of detail.errors ?? []) {
      const element = error.location?.fieldPathElements?.find((path) => path.fieldName === 'conversions');
      // proto3 JSON leaves an index of 0 out.
      const index = element === undefined ? undefined : (element.index ?? 0);
      const code = Object.values(error.errorCode ?? {})[0] ?? 'UNKNOWN';
      const reason = `${code}: ${error.message ?? ''}`.trim();
      const verdict: ConversionVerdict = ALREADY_COUNTED.has(code)
        ? { outcome: 'already' }
        : TRY_LATER.has(code)
          ? { outcome: 'retry', reason }
          : { outcome: 'refused', reason };
      if (index === undefined) return result.map(() => verdict);
      if (index < count) result[index] = verdict;
    }
  return result;
}

/**
 * An error about the whole request: 400 (the request itself is wrong) is permanent; 401 and 403
 * (credentials, the manager link) wait for the partner to mend them; 429 and 5xx for Google.
 */
function requestFailure(what: string, answer: GoogleAnswer): Error {
  const error = (
    answer.body as
      { error?: { status?: string; message?: string; details?: { errors?: GoogleAdsError[] }[] } } | undefined
  )?.error;
  const code = Object.values(error?.details?.[0]?.errors?.[0]?.errorCode ?? {})[0];
  const reason = `${what} answered ${answer.status}${error?.status === undefined ? '' : ` ${error.status}`}${code === undefined ? '' : ` ${code}`}: ${error?.message ?? answer.text.slice(0, 200)}`;
  return answer.status === 400 ? new PermanentExportError(reason) : new RetryableExportError(reason);
}
