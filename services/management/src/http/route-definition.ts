import type { CountryCode } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { ApiResponse } from './api-response';

/** The partner a request was authenticated as (digest auth + IP allowlist passed). */
export interface AuthenticatedPartner {
  id: string;
  /** The advId. */
  name: string;
  country: CountryCode;
  timeZone: string;
  /** Partner may see callers' numbers whole in CDRs. */
  showFullAnum: boolean;
  /**
   * Requests per minute; null or left out: RATE_LIMIT_PER_MINUTE, 0: no limit (docs/partner-api.md,
   * Rate limit).
   */
  rateLimitPerMinute?: number | null;
  customFields: { customer: string[]; source: string[] };
}

/** What every handler gets, whoever called. */
export interface BaseRouteContext {
  /** Path parameters by name. */
  params: Record<string, string>;
  /** Query parameters (the last value wins when repeated), without `_method`. */
  query: Record<string, string>;
  /** The request's clock reading; rules take time as an argument. */
  now: Date;
  log: Logger;
}

export interface RouteContext extends BaseRouteContext {
  partner: AuthenticatedPartner;
  /** Parsed urlencoded or JSON body; `{}` when none. */
  body: Record<string, unknown>;
  /** The request headers a handler may read: `Range`, for a download served in parts. */
  headers: { range?: string };
}

/** A switch request: the JSON body as sent (an object or, for CDR batches, an array). */
export interface SwitchRouteContext extends BaseRouteContext {
  body: unknown;
}

/** A provider webhook whose signature was checked: its form fields (the first value of a repeated name). */
export interface ProviderRouteContext extends BaseRouteContext {
  form: ReadonlyMap<string, string>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One partner operation (the default access). Paths are version-less and format-less
 * (`/customers/:customerId`); the HTTP layer strips `/v1`, `.xml`/`.json` suffixes and maps the
 * query-string sub-resource form onto them.
 */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  /** Digest authentication and the partner's IP allowlist (docs/openapi/management.yaml). */
  access?: 'partner';
  handle(context: RouteContext): Promise<ApiResponse>;
}

/**
 * One of the switch's endpoints (docs/telephony.md): the full path as sent (no version, no format
 * suffix), the bearer token instead of digest, a JSON body, errors always in JSON.
 */
export interface SwitchRouteDefinition {
  method: HttpMethod;
  path: string;
  access: 'switch';
  /** TELEPHONY_TOKEN; unset: every request is refused with 401. */
  token: string | undefined;
  bodyLimitBytes: number;
  /**
   * `records`: the body is one record or an array of them, and the handler checks each record's
   * names and nesting itself (checkRecordInput), so one bad record does not refuse the batch.
   * Otherwise the whole body is checked at the edge.
   */
  body?: 'records';
  handle(context: SwitchRouteContext): Promise<ApiResponse>;
}

/**
 * A provider webhook (docs/telephony.md): a urlencoded form signed by the provider against
 * `<publicUrl><path and query>`; a wrong or missing signature is 403 before anything is looked at.
 */
export interface ProviderRouteDefinition {
  method: HttpMethod;
  path: string;
  access: 'provider';
  signature: { authToken: string; publicUrl: string };
  bodyLimitBytes: number;
  handle(context: ProviderRouteContext): Promise<ApiResponse>;
}

/** A link that carries its own signature and expiry, which the handler checks (greeting audio). */
export interface SignedLinkRouteDefinition {
  method: HttpMethod;
  path: string;
  access: 'signed-link';
  handle(context: BaseRouteContext): Promise<ApiResponse>;
}

/**
 * A route anyone may read, over HTTPS like the rest: the API reference and its documents, which
 * hold nothing an account owns (docs/partner-api.md, API reference).
 */
export interface PublicRouteDefinition {
  method: HttpMethod;
  path: string;
  access: 'public';
  handle(context: PublicRouteContext): Promise<ApiResponse>;
}

/** A public route also learns the `Host` the request named (the served document's `servers`). */
export interface PublicRouteContext extends BaseRouteContext {
  host: string | undefined;
}

/** Every route the one registration (mount-routes.ts) serves. */
export type AnyRouteDefinition =
  | RouteDefinition
  | SwitchRouteDefinition
  | ProviderRouteDefinition
  | SignedLinkRouteDefinition
  | PublicRouteDefinition;

/** Routes outside the partner API: matched on the path as sent, authenticated by their own option. */
export type EdgeRouteDefinition = Exclude<AnyRouteDefinition, RouteDefinition>;
