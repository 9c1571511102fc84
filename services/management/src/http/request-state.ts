import type { Response } from 'express';
import type { AuthenticatedPartner } from './route-definition';

export type ResponseFormat = 'json' | 'xml';

/** What the platform middleware learned about a request, kept on res.locals for the next steps. */
export interface RequestState {
  format: ResponseFormat;
  /** Version-less, suffix-less path segments, still percent-encoded. */
  segments: string[];
  /** The segment that carried a `.xml`/`.json` suffix (request-path.ts). */
  suffixAt?: number | 'many';
  /** A version segment other than the current one; answered 404 after authentication. */
  unknownVersion?: string;
  /** Query parameters, the last value winning, `_method` removed. */
  query: Record<string, string>;
  /** The method the route is chosen by (after `_method` / X-HTTP-Method-Override). */
  method: string;
  partner?: AuthenticatedPartner;
  clientAddress: string;
}

const KEY = 'trackline';

export function requestState(res: Response): RequestState {
  const state = res.locals[KEY] as RequestState | undefined;
  if (state === undefined) throw new Error('request state read before the platform middleware set it');
  return state;
}

export function setRequestState(res: Response, state: RequestState): void {
  res.locals[KEY] = state;
}

/** The format errors are rendered in, JSON when the request never got that far. */
export function responseFormat(res: Response): ResponseFormat {
  return (res.locals[KEY] as RequestState | undefined)?.format ?? 'json';
}
