export {
  ManagementClient,
  type ApiResult,
  type CdrPage,
  type CheckedMethod,
  type HttpMethod,
  type ManagementClientOptions,
  type ManagementPaths,
  type PathWith,
  type RequestOptions,
  type SuccessBody,
} from './management-client';
export type {
  Cdr,
  CdrExtended,
  CreatedWebhook,
  Customer,
  CustomFieldNames,
  NoCustomFields,
  Source,
  WithCustomFields,
} from './custom-fields';
export {
  ReplacementClient,
  signReplacementBody,
  type ReplacementClientOptions,
  type ReplacementRequest,
  type ReplacementSuccess,
} from './replacement-client';
export {
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type CallWebhookEvent,
  type CustomerCreatedWebhookEvent,
  type PoolExhaustedWebhookEvent,
  type PoolResizedWebhookEvent,
  type TestWebhookEvent,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookVerificationFailure,
} from './webhook-verifier';
export { TracklineApiError, type RateLimitState } from './errors';
export { rateLimitOf } from './rate-limit-fields';
export {
  digestAuthorization,
  parseDigestChallenges,
  type DigestAlgorithm,
  type DigestChallenge,
} from './digest';
export type { paths as ManagementApi, components as ManagementComponents } from './generated/management';
export type { paths as ReplacementApi, components as ReplacementComponents } from './generated/replacement';
