import {
  fail,
  parseJsonObject,
  readBoolean,
  readInteger,
  readNullableString,
  readString,
} from './projection-error';

export type VisitorType = 'web' | 'app';

/** The request data a binding keeps, so a call it attributes can carry it onto the call record. */
export interface BindingContext {
  type: VisitorType;
  trackingId: string;
  fullUrl: string;
  fullReferrer: string;
  custnr: string | null;
  /** The request's whole parameters object (customer fields and custom dimensions). */
  parameters: Record<string, string>;
}

/** A pool number's binding as stored in `bindings`. */
export interface Binding {
  sessionId: string;
  /** The answering number (the number on the page, E.164) calls are forwarded to. */
  numberOnPage: string;
  /** True when the number was taken from a live session because the pool was exhausted. */
  recycled: boolean;
  /** Epoch ms when this session got the number. */
  boundAt: number;
  context: BindingContext;
}

/**
 * The context as the allocation script embeds it. The script writes the whole binding as
 *   {"session_id":"<uuid>","number_on_page":"<E.164>","recycled":<bool>,"bound_at":<ms>,"context":<this>}
 * and reads the fixed prefix back (owner check, bound_at, recycled) without a JSON decoder; it
 * rewrites a binding only when the request's context differs from the stored one (the session's last
 * request time is in the pool score). Bindings written before carry a `seen_at` this decoder ignores.
 * lua/allocate-numbers.lua must change together with decodeBinding.
 */
export function encodeBindingContext(context: BindingContext): string {
  return JSON.stringify({
    type: context.type,
    tracking_id: context.trackingId,
    full_url: context.fullUrl,
    full_referrer: context.fullReferrer,
    custnr: context.custnr,
    parameters: context.parameters,
  });
}

const WHAT = 'binding';

export function decodeBinding(raw: string): Binding {
  const record = parseJsonObject(WHAT, raw);
  const context = record.context;
  if (typeof context !== 'object' || context === null || Array.isArray(context))
    fail(WHAT, 'context must be an object');
  return {
    sessionId: readString(WHAT, record, 'session_id'),
    numberOnPage: readString(WHAT, record, 'number_on_page'),
    recycled: readBoolean(WHAT, record, 'recycled'),
    boundAt: readInteger(WHAT, record, 'bound_at'),
    context: decodeContext(context as Record<string, unknown>),
  };
}

function decodeContext(record: Record<string, unknown>): BindingContext {
  const type = readString(WHAT, record, 'type');
  if (type !== 'web' && type !== 'app') fail(WHAT, 'context.type must be web or app');
  const parameters = record.parameters;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    fail(WHAT, 'context.parameters must be an object');
  }
  if (!Object.values(parameters).every((value) => typeof value === 'string')) {
    fail(WHAT, 'context.parameters values must be strings');
  }
  return {
    type,
    trackingId: readString(WHAT, record, 'tracking_id'),
    fullUrl: readString(WHAT, record, 'full_url'),
    fullReferrer: readString(WHAT, record, 'full_referrer'),
    custnr: readNullableString(WHAT, record, 'custnr'),
    parameters: parameters as Record<string, string>,
  };
}
