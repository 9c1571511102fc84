import {
  jsonResponse,
  LoopbackServer,
  parseJson,
  isObject,
  type SimulatedRequest,
  type SimulatedResponse,
} from './loopback-server';
import { OAuthTokenEndpoint, type OAuthGrant } from './oauth-token-endpoint';
import { checkClickConversion, type ConversionError } from './click-conversion-rules';

/** The Google Ads account set-up a simulator plays. Customer ids are digits without dashes. */
export interface GoogleAdsAccount extends OAuthGrant {
  developerToken: string;
  /** The manager account the OAuth user signs in through (`login-customer-id`). */
  managerCustomerId: string;
  /** The client account under the manager that owns the conversion actions. */
  customerId: string;
  conversionActionIds: readonly string[];
  /** Clicks Google knows: a gclid, gbraid or wbraid not listed is not found. */
  clickIds: readonly string[];
}

/** One conversion Google accepted and counts. */
export interface AcceptedConversion {
  customerId: string;
  conversion: Record<string, unknown>;
}

/** One upload request as received, whatever became of it. */
export interface ConversionUpload {
  path: string;
  headers: SimulatedRequest['headers'];
  body: unknown;
  status: number;
  response: unknown;
}

const UPLOAD_PATH = /^\/(v\d+)\/customers\/([^/:]+):uploadClickConversions$/;

/**
 * Google Ads API conversion upload over REST, with Google's OAuth token endpoint on the same server:
 * `POST /token` (refresh-token grant) and `POST /v<N>/customers/<id>:uploadClickConversions` with
 * `Authorization: Bearer`, `developer-token` and `login-customer-id`. Errors outside the
 * conversions are RPC-level (401, 403, 400 with a `GoogleAdsFailure`); a conversion Google cannot
 * take is reported in `partialFailureError` at its index while the others are accepted. A repeated
 * `orderId` for the same conversion action is `ORDER_ID_ALREADY_IN_USE` and counted once.
 */
export class GoogleAdsSimulator {
  readonly uploads: ConversionUpload[] = [];
  readonly accepted: AcceptedConversion[] = [];
  readonly oauth: OAuthTokenEndpoint;
  private readonly server = new LoopbackServer((request) => this.answer(request));
  private requestCount = 0;

  constructor(
    readonly account: GoogleAdsAccount,
    now: () => number = Date.now,
  ) {
    this.oauth = new OAuthTokenEndpoint(account, now);
  }

  start(): Promise<void> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Replaces both `https://googleads.googleapis.com` and `https://oauth2.googleapis.com`. */
  get baseUrl(): string {
    return this.server.baseUrl;
  }

  /** `customers/<id>/conversionActions/<action>`, the resource name a conversion names. */
  conversionAction(actionId = this.account.conversionActionIds[0]!): string {
    return `customers/${this.account.customerId}/conversionActions/${actionId}`;
  }

  /** Accepted conversions carrying this order id. */
  acceptedWithOrderId(orderId: string): AcceptedConversion[] {
    return this.accepted.filter((entry) => entry.conversion.orderId === orderId);
  }

  private answer(request: SimulatedRequest): SimulatedResponse {
    if (request.path === '/token') return this.oauth.answer(request);
    const match = UPLOAD_PATH.exec(request.path);
    if (match === null) return jsonResponse(404, rpcError(404, 'NOT_FOUND', 'Not Found'));
    if (request.method !== 'POST') return { status: 405 };
    const body = parseJson(request.body);
    const answer = this.upload(match[1]!, match[2]!, request, body);
    this.uploads.push({
      path: request.path,
      headers: request.headers,
      body: body ?? request.body,
      status: answer.status,
      response: parseJson(answer.body ?? ''),
    });
    return answer;
  }

  private upload(
    version: string,
    customerId: string,
    request: SimulatedRequest,
    body: unknown,
  ): SimulatedResponse {
    const requestId = `sim-${++this.requestCount}`;
    const failure = (status: number, code: string, errorCode: Record<string, string>, message: string) =>
      jsonResponse(status, rpcError(status, code, message, version, requestId, [{ errorCode, message }]));
    if (!this.oauth.isValid(headerOf(request, 'authorization')))
      return jsonResponse(
        401,
        rpcError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        ),
      );
    const developerToken = headerOf(request, 'developer-token');
    if (developerToken === undefined)
      return failure(
        401,
        'UNAUTHENTICATED',
        { authenticationError: 'DEVELOPER_TOKEN_PARAMETER_MISSING' },
        'The developer token is not included in the request.',
      );
    if (developerToken !== this.account.developerToken)
      return failure(
        401,
        'UNAUTHENTICATED',
        { authenticationError: 'DEVELOPER_TOKEN_INVALID' },
        'The developer token is not valid.',
      );
    // The OAuth user reaches the client account only through its manager account.
    if (
      headerOf(request, 'login-customer-id') !== this.account.managerCustomerId ||
      customerId !== this.account.customerId
    )
      return failure(
        403,
        'PERMISSION_DENIED',
        { authorizationError: 'USER_PERMISSION_DENIED' },
        "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header.",
      );
    if (!(headerOf(request, 'content-type') ?? '').startsWith('application/json') || !isObject(body))
      return jsonResponse(400, rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    const unknown = Object.keys(body).find(
      (key) => !['conversions', 'partialFailure', 'validateOnly', 'jobId', 'debugEnabled'].includes(key),
    );
    if (unknown !== undefined)
      return jsonResponse(
        400,
        rpcError(
          400,
          'INVALID_ARGUMENT',
          `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`,
        ),
      );
    if (body.partialFailure !== true)
      return failure(
        400,
        'INVALID_ARGUMENT',
        { partialFailureError: 'PARTIAL_FAILURE_MODE_REQUIRED' },
        'The partial failure field was false in the request. This method requires this field be set to true.',
      );
    const conversions = body.conversions;
    if (!Array.isArray(conversions) || conversions.length === 0)
      return failure(
        400,
        'INVALID_ARGUMENT',
        { requestError: 'REQUIRED_FIELD_MISSING' },
        'conversions is required.',
      );
    if (conversions.length > 2000)
      return failure(
        400,
        'INVALID_ARGUMENT',
        { conversionUploadError: 'TOO_MANY_CONVERSIONS_IN_REQUEST' },
        'Upload fewer than 2001 events in a single request.',
      );
    return this.take(version, customerId, conversions, body.validateOnly === true, requestId);
  }

  private take(
    version: string,
    customerId: string,
    conversions: unknown[],
    validateOnly: boolean,
    requestId: string,
  ): SimulatedResponse {
    const errors: (ConversionError & { index: number })[] = [];
    const results: Record<string, unknown>[] = [];
    const orderIdsInRequest = new Set<string>();
    conversions.forEach((conversion, index) => {
      const error = checkClickConversion(conversion, {
        customerId,
        conversionActionIds: this.account.conversionActionIds,
        clickIds: this.account.clickIds,
        orderIdsInRequest,
        orderIdTaken: (action, orderId) =>
          this.accepted.some(
            (entry) => entry.conversion.conversionAction === action && entry.conversion.orderId === orderId,
          ),
      });
      if (error !== null) {
        errors.push({ ...error, index });
        results.push({});
        return;
      }
      const taken = conversion as Record<string, unknown>;
      if (!validateOnly) this.accepted.push({ customerId, conversion: taken });
      results.push(resultOf(taken));
    });
    const answer: Record<string, unknown> = validateOnly
      ? {}
      : { results, jobId: String(2 ** 31 + this.uploads.length) };
    if (errors.length > 0) answer.partialFailureError = partialFailureError(version, requestId, errors);
    return jsonResponse(200, answer);
  }
}

function resultOf(conversion: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of [
    'gclid',
    'gbraid',
    'wbraid',
    'conversionAction',
    'conversionDateTime',
    'userIdentifiers',
  ])
    if (conversion[key] !== undefined) result[key] = conversion[key];
  return result;
}

function partialFailureError(
  version: string,
  requestId: string,
  errors: (ConversionError & { index: number })[],
) {
  return {
    code: 3,
    message: errors
      .map((error) => `${error.message}, at conversions[${error.index}].${error.field}`)
      .join('\n'),
    details: [
      {
        '@type': `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
        errors: errors.map((error) => ({
          errorCode: error.errorCode,
          message: error.message,
          ...(error.trigger === undefined ? {} : { trigger: { stringValue: error.trigger } }),
          location: {
            fieldPathElements: [{ fieldName: 'conversions', index: error.index }, { fieldName: error.field }],
          },
        })),
        requestId,
      },
    ],
  };
}

function rpcError(
  code: number,
  status: string,
  message: string,
  version?: string,
  requestId?: string,
  errors?: { errorCode: Record<string, string>; message: string }[],
) {
  return {
    error: {
      code,
      message,
      status,
      ...(errors === undefined
        ? {}
        : {
            details: [
              {
                '@type': `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
                errors,
                requestId,
              },
            ],
          }),
    },
  };
}

function headerOf(request: SimulatedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
