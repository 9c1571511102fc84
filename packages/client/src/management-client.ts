import { DigestSession, type DigestAlgorithm } from './digest';
import { errorMessage, TracklineApiError, type RateLimitState } from './errors';
import type { paths } from './generated/management';
import { rateLimitOf } from './rate-limit-fields';
import { HttpTransport, type RawAnswer, type TransportOptions } from './http-transport';

export type ManagementPaths = paths;
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** The paths of the management API that have operation `M`. */
export type PathWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

type Operation<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of the operation's success answer (200, 201 or 202). */
export type SuccessBody<P extends keyof paths, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R }
    ? R extends { 200: infer A }
      ? JsonOf<A>
      : R extends { 201: infer A }
        ? JsonOf<A>
        : R extends { 202: infer A }
          ? JsonOf<A>
          : never
    : never;

type PathParamsOf<O> = O extends { parameters: { path: infer Params } } ? Params : never;
type QueryOf<O> = O extends { parameters: { query?: infer Query } } ? Query : never;
type BodyOf<O> = O extends { requestBody?: infer Body } ? NonNullable<Body> : never;

/** What a call of the operation takes: path parameters, query and JSON body, each when it has them. */
export type RequestOptions<P extends keyof paths, M extends HttpMethod> = ([
  NonNullable<PathParamsOf<Operation<P, M>>>,
] extends [never]
  ? { params?: never }
  : { params: PathParamsOf<Operation<P, M>> }) &
  ([NonNullable<QueryOf<Operation<P, M>>>] extends [never]
    ? { query?: never }
    : { query?: QueryOf<Operation<P, M>> }) &
  ([BodyOf<Operation<P, M>>] extends [never] ? { body?: never } : { body: JsonOf<BodyOf<Operation<P, M>>> });

export interface ApiResult<T> {
  status: number;
  data: T;
  /** The account's request budget after this request. */
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
 * The management API with HTTP digest authentication done for the caller (RFC 7616, qop=auth,
 * MD5 or SHA-256): the first request learns a nonce from the server's 401, every later one reuses
 * it with a growing `nc` (no extra round trip), and a 401 carrying a fresh challenge — an expired
 * nonce (`stale=true`), or a count overtaken by a concurrent request — is retried once on the new
 * nonce. Requests and answers are typed from docs/openapi/management.yaml; bodies go as JSON, and
 * `requestXml` returns an answer's XML form as text.
 */
export class ManagementClient {
  private readonly transport: HttpTransport;
  private readonly session: DigestSession;
  private readonly basePath: string;

  constructor(options: ManagementClientOptions) {
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/$/, '');
    this.transport = new HttpTransport(base, options);
    this.session = new DigestSession(options.username, options.password, options.algorithm ?? 'MD5');
  }

  /** Calls one operation; throws TracklineApiError for an error status. */
  async request<M extends HttpMethod, P extends PathWith<M>>(
    method: M,
    path: P,
    ...[options]: object extends RequestOptions<P, M> ? [RequestOptions<P, M>?] : [RequestOptions<P, M>]
  ): Promise<ApiResult<SuccessBody<P, M>>> {
    // The document lists the `.xml` path forms too; their answers are no JSON to type.
    if (/\.xml(\/|$)/.test(path)) throw new Error(`${path} answers XML: call requestXml for it`);
    const answer = await this.call(method, path, options, 'application/json');
    const data = answer.text === '' ? undefined : (JSON.parse(answer.text) as unknown);
    const rateLimit = rateLimitOf(answer.headers);
    if (answer.status >= 400) throw apiError(answer, errorMessage(answer.status, data), data, rateLimit);
    return { status: answer.status, data: data as SuccessBody<P, M>, rateLimit };
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
    ...[options]: object extends RequestOptions<P, M> ? [RequestOptions<P, M>?] : [RequestOptions<P, M>]
  ): Promise<ApiResult<string>> {
    const answer = await this.call(method, path, options, 'application/xml');
    const rateLimit = rateLimitOf(answer.headers);
    if (answer.status >= 400)
      throw apiError(answer, xmlErrorMessage(answer.status, answer.text), answer.text, rateLimit);
    return { status: answer.status, data: answer.text, rateLimit };
  }

  private call(
    method: HttpMethod,
    path: string,
    options: object | undefined,
    accept: string,
  ): Promise<RawAnswer> {
    const { params, query, body } = (options ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const target = this.target(path, params, query);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { Accept: accept };
    if (text !== undefined) headers['Content-Type'] = 'application/json';
    return this.authenticated(method.toUpperCase(), target, headers, text);
  }

  /** `GET /miscellaneous/ping`: true when the credentials and this server's address are accepted. */
  async ping(): Promise<boolean> {
    return (await this.request('get', '/miscellaneous/ping')).data.ping === 'ok';
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.transport.close();
  }

  private async authenticated(
    method: string,
    target: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<RawAnswer> {
    if (!this.session.ready) {
      const first = await this.transport.send(method, target, headers, body);
      if (first.status !== 401 || !this.session.adopt(first.headers['www-authenticate'])) return first;
    }
    const answer = await this.send(method, target, headers, body);
    if (answer.status === 401 && this.session.adopt(answer.headers['www-authenticate']))
      return this.send(method, target, headers, body);
    return answer;
  }

  private send(method: string, target: string, headers: Record<string, string>, body: string | undefined) {
    // The digest covers the request target exactly as it goes on the request line.
    const authorization = this.session.authorize(method, target);
    return this.transport.send(method, target, { ...headers, Authorization: authorization }, body);
  }

  private target(
    path: string,
    params: Record<string, unknown> | undefined,
    query: Record<string, unknown> | undefined,
  ) {
    const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = params?.[name];
      if (value === undefined) throw new Error(`no value for {${name}} of ${path}`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined && value !== null) search.set(key, String(value));
    const queryText = search.toString();
    return `${this.basePath}${filled}${queryText === '' ? '' : `?${queryText}`}`;
  }
}

function apiError(
  answer: RawAnswer,
  message: string,
  body: unknown,
  rateLimit: RateLimitState | undefined,
): TracklineApiError {
  const retryAfter = Number(answer.headers['retry-after']);
  return new TracklineApiError(
    answer.status,
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
