import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@trackline/platform';
import type { ApiRecord } from '../http/api-response';
import { checkManagementAnswer } from './api-contract';
import { AddressList } from '../http/address-list';
import { createHttpApp } from '../http/http-app';
import type { PartnerAuthenticator } from '../http/partner-authentication';
import type { PartnerRateLimitOptions } from '../http/rate-limit/partner-rate-limit';
import type { AnyRouteDefinition, AuthenticatedPartner, HttpMethod } from '../http/route-definition';

/** A partner as partner authentication hands it to the routes: Norwegian, no custom fields unless given. */
export function routePartner(
  id: string,
  name: string,
  customFields: AuthenticatedPartner['customFields'] = { customer: [], source: [] },
): AuthenticatedPartner {
  return { id, name, country: 'NO', timeZone: 'Europe/Oslo', showFullAnum: false, customFields };
}

/** What a client sees of one answer. */
export interface RouteAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body of a JSON answer; undefined for other types. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RouteApp {
  /** `http://127.0.0.1:<port>`: the app answers as behind the HTTPS front. */
  base: string;
  close(): Promise<void>;
}

/**
 * Serves routes through the real registration and error mapper (http-app.ts, mount-routes.ts,
 * error-handler.ts) on loopback. The TLS front is stood in for by a trusted proxy saying HTTPS;
 * digest authentication by `Authorization: Partner <name>` naming one of `partners` (their IP
 * allowlist passes). Everything after authentication — body parsing, edge checks, method
 * resolution, rendering, errors — is what production runs.
 */
export async function startRouteApp(
  routes: readonly AnyRouteDefinition[],
  options: {
    partners?: readonly AuthenticatedPartner[];
    clock: () => Date;
    rateLimit?: PartnerRateLimitOptions;
  },
): Promise<RouteApp> {
  const app = createHttpApp({
    logger: createLogger({ service: 'route-test', level: 'silent' }),
    routes,
    authenticator: partnerByName(options.partners ?? []),
    rateLimit: options.rateLimit,
    trustedProxies: AddressList.parse(['127.0.0.1', '::1']),
    readiness: [],
    clock: options.clock,
  });
  const server = createServer((req, res) => {
    req.headers['x-forwarded-proto'] = 'https';
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function partnerByName(partners: readonly AuthenticatedPartner[]): PartnerAuthenticator {
  return {
    challenges: () => ['Partner realm="route-test"'],
    authenticate: async (req) => {
      const name = /^Partner (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const partner = partners.find((candidate) => candidate.name === name);
      if (partner === undefined)
        return { pass: false, reason: 'Digest authentication required', stale: false };
      return {
        pass: true,
        credentials: { partner, ha1Md5: '', ha1Sha256: '', allowIps: ['127.0.0.1/32', '::1/128'] },
      };
    },
  };
}

/** The `{ error: { status, message } }` a refusal answers with; fails the test for anything else. */
export function refusal(answer: RouteAnswer, status: number): string {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: { status, message: expect.any(String) } },
  });
  return answer.body.error.message as string;
}

/** The records of a successful list answer, `{ "<plural>": [...] }`; fails the test for anything else. */
export function answerRecords(answer: RouteAnswer, plural: string): ApiRecord[] {
  expect(answer.status).toBeLessThan(300);
  expect(Object.keys(answer.body)).toEqual([plural]);
  expect(Array.isArray(answer.body[plural])).toBe(true);
  return answer.body[plural] as ApiRecord[];
}

/** A 400 `{ "error": { "status": 400, "message": "<field>: <rule>" } }` naming the field (and the rule, when given). */
export async function expect400(
  answer: Promise<RouteAnswer>,
  field: string,
  rule?: string | RegExp,
): Promise<void> {
  const message = refusal(await answer, 400);
  expect(message.slice(0, field.length + 2)).toBe(`${field}: `);
  if (rule !== undefined) expect(message.slice(field.length + 2)).toMatch(rule);
}

/** Sends one request and reads the answer as a client would. */
export async function send(
  base: string,
  method: string,
  target: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<RouteAnswer> {
  const response = await fetch(`${base}${target}`, { method, headers: init.headers, body: init.body });
  const text = await response.text();
  checkManagementAnswer({
    method,
    target,
    requestHeaders: init.headers,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  });
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: json ? JSON.parse(text) : undefined,
  };
}

export interface RouteCall {
  partner: AuthenticatedPartner;
  now: Date;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/**
 * Calls a partner operation over HTTP through the real registration, as the partner would: the
 * route template's parameters filled in, the query in the URL, the body as JSON. The app is built
 * for the call from `routes` and served until the answer is read.
 */
export async function callRoute(
  routes: readonly AnyRouteDefinition[],
  method: HttpMethod,
  path: string,
  call: RouteCall,
): Promise<RouteAnswer> {
  if (!routes.some((route) => route.method === method && route.path === path))
    throw new Error(`no route ${method} ${path}`);
  const params = call.params ?? {};
  const filled = path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} of ${path}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(call.query ?? {}).toString();
  const app = await startRouteApp(routes, { partners: [call.partner], clock: () => call.now });
  try {
    // GET has no body; an empty one is left out on DELETE as a client would.
    const body =
      method === 'GET' ||
      call.body === undefined ||
      (method === 'DELETE' && Object.keys(call.body).length === 0)
        ? undefined
        : JSON.stringify(call.body);
    return await send(app.base, method, `${filled}${query === '' ? '' : `?${query}`}`, {
      headers: {
        Authorization: `Partner ${call.partner.name}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body,
    });
  } finally {
    await app.close();
  }
}
