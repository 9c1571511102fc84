import type { Logger } from '@trackline/platform';

/** What a handler gets, whoever called: the query of the URL as sent, the request's logger. */
export interface BaseRouteContext {
  query: URLSearchParams;
  log: Logger;
}

/** What a handler answers: a JSON body or a TwiML document, rendered by the registration. */
export type RouteAnswer = { kind: 'json'; status?: number; body: unknown } | { kind: 'twiml'; xml: string };

/** One of the switch's endpoints (docs/telephony.md): the bearer token, a JSON body. */
export interface SwitchRouteDefinition {
  method: 'POST';
  path: string;
  access: 'switch';
  /** TELEPHONY_TOKEN; unset: every request is refused with 401. */
  token: string;
  handle(context: BaseRouteContext & { body: unknown }): Promise<RouteAnswer>;
}

/** A provider webhook (docs/telephony.md): a urlencoded form signed by the provider. */
export interface ProviderRouteDefinition {
  method: 'POST';
  path: string;
  access: 'provider';
  signature: { publicUrl: string; authToken: string };
  handle(context: BaseRouteContext & { form: ReadonlyMap<string, string> }): Promise<RouteAnswer>;
}

/** Every Express-served route of the replacement service (the replacement API itself runs on node:http). */
export type RouteDefinition = SwitchRouteDefinition | ProviderRouteDefinition;
