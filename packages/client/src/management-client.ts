import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import type {
  Cdr,
  CdrExtended,
  CustomFieldNames,
  ManagementPathsWith,
  NoCustomFields,
} from './custom-fields';
import type { DigestAlgorithm } from './digest';
import { createDigestFetch, type DigestFetch } from './digest-fetch';
import { errorMessage, TracklineApiError, type RateLimitState } from './errors';
import type { paths } from './generated/management';
import type { TransportOptions } from './http-transport';
import { rateLimitOf } from './rate-limit-fields';

export type ManagementPaths<F extends CustomFieldNames = NoCustomFields> = ManagementPathsWith<F>;
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** The openapi-fetch client of the management API, typed from docs/openapi/management.yaml. */
export type ManagementApiClient<F extends CustomFieldNames = NoCustomFields> = Client<
  ManagementPathsWith<F>,
  'application/json'
>;

/** The paths of the management API that have operation `M`. */
export type PathWith<M extends HttpMethod> = ClientPathsWithMethod<ManagementApiClient, M>;

/** What a call of the operation takes, as openapi-fetch has it: `{ params: { path, query }, body }`. */
export type RequestOptions<
  P extends PathWith<M>,
  M extends HttpMethod,
  F extends CustomFieldNames = NoCustomFields,
> = MaybeOptionalInit<ManagementPathsWith<F>[P], M>;

/** The options argument may be left out when nothing in it is required (MaybeOptionalInit says so). */
type OptionsArgument<Init> = undefined extends Init ? [Init?] : [Init];

/** The JSON body of the operation's success answer. */
export type SuccessBody<
  P extends PathWith<M>,
  M extends HttpMethod,
  F extends CustomFieldNames = NoCustomFields,
> = NonNullable<
  FetchResponse<
    NonNullable<ManagementPathsWith<F>[P][M]>,
    RequestOptions<P, M, F>,
    'application/json'
  >['data']
>;

/**
 * openapi-fetch's call of one method, with the options checked as written: openapi-fetch infers
 * them as a type of their own, which let a misspelled body field through.
 */
export type CheckedMethod<M extends HttpMethod, F extends CustomFieldNames = NoCustomFields> = <
  P extends PathWith<M>,
>(
  path: P,
  ...options: OptionsArgument<RequestOptions<P, M, F>>
) => Promise<
  FetchResponse<NonNullable<ManagementPathsWith<F>[P][M]>, RequestOptions<P, M, F>, 'application/json'>
>;

type CdrQuery = NonNullable<paths['/statistics/cdrs']['get']['parameters']['query']>;

/** A page of call records (`GET /statistics/cdrs`). */
export interface CdrPage<R> {
  total: number;
  page: number;
  pagesize: number;
  numpages: number;
  cdrs: R[];
}

export interface ApiResult<T> {
  status: number;
  data: T;
  /** The account's request budget after this request; undefined for an account without a limit. */
  rateLimit: RateLimitState | undefined;
}

export interface ManagementClientOptions extends TransportOptions {
  /** The address handed out with the credentials, with the version: `https://api.example.com/v1`. */
  baseUrl: string;
  username: string;
  password: string;
  /** Digest hash; both are offered by the service. Default MD5. */
  algorithm?: DigestAlgorithm;
}

/**
 * The management API through openapi-fetch, with HTTP digest authentication as its fetch
 * (digest-fetch.ts). `GET`, `POST`, `PUT` and `DELETE` are openapi-fetch's own and resolve to
 * `{ data, error, response }` (`openapi` is the whole openapi-fetch client, for its middleware);
 * `request` calls the same operations and throws an error status as TracklineApiError;
 * `requestXml` returns an answer's XML form as text.
 */
export class ManagementClient<F extends CustomFieldNames = NoCustomFields> {
  /** The openapi-fetch client, its fetch the digest-authenticating one. */
  readonly openapi: ManagementApiClient<F>;
  readonly GET: CheckedMethod<'get', F>;
  readonly POST: CheckedMethod<'post', F>;
  readonly PUT: CheckedMethod<'put', F>;
  readonly DELETE: CheckedMethod<'delete', F>;
  /**
   * `GET /statistics/cdrs` by the kind of record: `list` answers basic records, `listExtended`
   * sends `extended=1` and answers extended ones (every extended field typed as there).
   */
  readonly cdrs: {
    list(query: Omit<CdrQuery, 'extended'>): Promise<ApiResult<CdrPage<Cdr>>>;
    listExtended(query: Omit<CdrQuery, 'extended'>): Promise<ApiResult<CdrPage<CdrExtended>>>;
  };
  private readonly digest: DigestFetch;

  constructor(options: ManagementClientOptions) {
    const base = new URL(options.baseUrl);
    this.digest = createDigestFetch(base, {
      ...options,
      algorithm: options.algorithm ?? 'MD5',
    });
    this.openapi = createClient<ManagementPathsWith<F>, 'application/json'>({
      baseUrl: base.href.replace(/\/$/, ''),
      fetch: this.digest.fetch,
      headers: { Accept: 'application/json' },
    });
    // The same functions, their options typed as written (CheckedMethod).
    ({
      GET: this.GET,
      POST: this.POST,
      PUT: this.PUT,
      DELETE: this.DELETE,
    } = this.openapi as unknown as {
      GET: CheckedMethod<'get', F>;
      POST: CheckedMethod<'post', F>;
      PUT: CheckedMethod<'put', F>;
      DELETE: CheckedMethod<'delete', F>;
    });
    const page = async <R>(query: CdrQuery) =>
      (await this.send('get', '/statistics/cdrs', { params: { query } })) as ApiResult<CdrPage<R>>;
    this.cdrs = {
      list: (query) => page<Cdr>({ ...query, extended: '0' }),
      listExtended: (query) => page<CdrExtended>({ ...query, extended: '1' }),
    };
  }

  /** Calls one operation; throws TracklineApiError for an error status. */
  async request<M extends HttpMethod, P extends PathWith<M>>(
    method: M,
    path: P,
    ...[options]: OptionsArgument<RequestOptions<P, M, F>>
  ): Promise<ApiResult<SuccessBody<P, M, F>>> {
    return (await this.send(method, path, options)) as ApiResult<SuccessBody<P, M, F>>;
  }

  /**
   * Calls one operation like `request` but asks for the XML form (`Accept: application/xml`,
   * docs/partner-api.md, XML) and resolves to the answer's text as the service sent it. The request
   * body still goes as JSON. An error status is thrown as TracklineApiError with the `<message>` of
   * the XML error and the XML text as `body`.
   */
  async requestXml<M extends HttpMethod, P extends PathWith<M>>(
    method: M,
    path: P,
    ...[options]: OptionsArgument<RequestOptions<P, M, F>>
  ): Promise<ApiResult<string>> {
    const { data, error, response } = await this.call(method, path, options, {
      parseAs: 'text',
      headers: { Accept: 'application/xml' },
    });
    const rateLimit = rateLimitOf(response.headers);
    const text = String((response.ok ? data : error) ?? '');
    if (!response.ok) throw apiError(response, xmlErrorMessage(response.status, text), text, rateLimit);
    return { status: response.status, data: text, rateLimit };
  }

  /** `GET /miscellaneous/ping`: true when the credentials and this server's address are accepted. */
  async ping(): Promise<boolean> {
    return (
      ((await this.send('get', '/miscellaneous/ping', undefined)).data as { ping?: string }).ping === 'ok'
    );
  }

  /**
   * `GET /cdrs/changes`: the call records' changes after `cursor` (docs/cdrs.md, Change feed).
   * Keep `next_cursor` of each answer and send it back; an empty page means nothing new yet.
   */
  async cdrChanges(cursor = '', limit?: number): Promise<ApiResult<SuccessBody<'/cdrs/changes', 'get', F>>> {
    return (await this.send('get', '/cdrs/changes', {
      params: { query: { cursor, ...(limit === undefined ? {} : { limit }) } },
    })) as ApiResult<SuccessBody<'/cdrs/changes', 'get', F>>;
  }

  /**
   * `POST /webhooks/{webhook_id}/deliveries/{delivery_id}/resend`: the delivery once more, with its
   * `webhook-id` (docs/webhooks.md, Delivery log); answered 202.
   */
  async resendWebhookDelivery(
    webhookId: string,
    deliveryId: string,
  ): Promise<ApiResult<SuccessBody<'/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', 'post', F>>> {
    return (await this.send('post', '/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', {
      params: { path: { webhook_id: webhookId, delivery_id: deliveryId } },
    })) as ApiResult<SuccessBody<'/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', 'post', F>>;
  }

  /** `PUT /webhooks/{webhook_id}` with state 0: a webhook Trackline disabled (or one paused) sends again. */
  async enableWebhook(
    webhookId: string,
  ): Promise<ApiResult<SuccessBody<'/webhooks/{webhook_id}', 'put', F>>> {
    return (await this.send('put', '/webhooks/{webhook_id}', {
      params: { path: { webhook_id: webhookId } },
      body: { state: '0' },
    })) as ApiResult<SuccessBody<'/webhooks/{webhook_id}', 'put', F>>;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.digest.close();
  }

  private async send(
    method: HttpMethod,
    path: string,
    options: object | undefined,
  ): Promise<ApiResult<unknown>> {
    const { data, error, response } = await this.call(method, path, options, {});
    const rateLimit = rateLimitOf(response.headers);
    if (!response.ok) throw apiError(response, errorMessage(response.status, error), error, rateLimit);
    return { status: response.status, data, rateLimit };
  }

  private call(
    method: HttpMethod,
    path: string,
    options: object | undefined,
    extra: { parseAs?: 'text'; headers?: Record<string, string> },
  ): Promise<{ data?: unknown; error?: unknown; response: Response }> {
    // The method's own generics have checked the options; openapi-fetch's union of every path's
    // options is more than the compiler follows here.
    const untyped = this.openapi.request as unknown as (
      method: string,
      path: string,
      init: object,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return untyped(method, path, { ...options, ...extra });
  }
}

function apiError(
  response: Response,
  message: string,
  body: unknown,
  rateLimit: RateLimitState | undefined,
): TracklineApiError {
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  return new TracklineApiError(
    response.status,
    message,
    body,
    rateLimit,
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The `<message>` of an XML error body `<error><status>…</status><message>…</message></error>`. */
export function xmlErrorMessage(status: number, xml: string): string {
  const match = /<message>([^<]*)<\/message>/.exec(xml);
  if (!match) return `HTTP ${status}`;
  return match[1].replace(
    /&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g,
    (_all, name: string, dec?: string, hex?: string) =>
      dec !== undefined
        ? String.fromCodePoint(Number(dec))
        : hex !== undefined
          ? String.fromCodePoint(parseInt(hex, 16))
          : XML_ENTITIES[name],
  );
}
