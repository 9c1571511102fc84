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
  customFields: { customer: string[]; source: string[] };
}

export interface RouteContext {
  partner: AuthenticatedPartner;
  /** Path parameters by name. */
  params: Record<string, string>;
  /** Query parameters (the last value wins when repeated), without `_method`. */
  query: Record<string, string>;
  /** Parsed urlencoded or JSON body; `{}` when none. */
  body: Record<string, unknown>;
  /** The request's clock reading; rules take time as an argument. */
  now: Date;
  log: Logger;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One operation. Paths are version-less and format-less (`/customers/:customerId`); the HTTP layer
 * strips `/v1`, `.xml`/`.json` suffixes and maps the query-string sub-resource form onto them.
 */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  handle(context: RouteContext): Promise<ApiResponse>;
}
