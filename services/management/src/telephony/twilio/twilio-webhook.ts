import { ForbiddenError, parseFormBody, providerSignatureMatches, ValidationError } from '@trackline/domain';
import type { Request } from 'express';

/** The form fields of a provider webhook, by name (the first value of a repeated name). */
export type WebhookForm = ReadonlyMap<string, string>;

/**
 * Checks the provider's signature of a request whose body express.raw has read: against
 * `<MANAGEMENT_PUBLIC_URL><path and query as received>` (never the Host header), X-Twilio-Signature
 * or X-SignalWire-Signature. Wrong or missing: 403 before anything is looked at.
 */
export function signedForm(request: Request, publicUrl: string, authToken: string): WebhookForm {
  const body: unknown = request.body;
  const raw = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  const type = request.get('content-type') ?? '';
  const fields =
    raw === '' || type.toLowerCase().startsWith('application/x-www-form-urlencoded')
      ? parseFormBody(raw)
      : null;
  const signature = request.get('x-twilio-signature') ?? request.get('x-signalwire-signature');
  if (
    fields === null ||
    !providerSignatureMatches(authToken, `${publicUrl}${request.originalUrl}`, fields, signature)
  )
    throw new ForbiddenError('Invalid signature');
  const form = new Map<string, string>();
  for (const [name, value] of fields) if (!form.has(name)) form.set(name, value);
  return form;
}

export function field(form: WebhookForm, name: string, pattern: RegExp, rule: string): string {
  const value = form.get(name);
  if (value === undefined || value === '') throw new ValidationError(name, 'is required');
  if (!pattern.test(value)) throw new ValidationError(name, rule);
  return value;
}

export function optionalSeconds(form: WebhookForm, name: string): number | null {
  const value = form.get(name);
  if (value === undefined || value === '') return null;
  if (!/^\d{1,9}$/.test(value)) throw new ValidationError(name, 'must be whole seconds');
  return Number(value);
}

export const CALL_SID_PATTERN = /^[\x21-\x7e]{1,128}$/;
export const CALL_SID_RULE = 'must be 1 to 128 printable characters without spaces';
export const NUMBER_PATTERN = /^\+?[0-9]{3,20}$/;

export function toE164(raw: string): string {
  return raw.startsWith('+') ? raw : `+${raw}`;
}
