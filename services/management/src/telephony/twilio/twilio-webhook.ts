import { normalizePhoneNumber, ValidationError } from '@trackline/domain';

/** The form fields of a signed provider webhook (http/provider-signature.ts), by name. */
export type WebhookForm = ReadonlyMap<string, string>;

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

/** A tracking number the provider names, read by the one rule of every edge (docs/switch.md, "Numbers"). */
export function toE164(field: string, raw: string): string {
  return normalizePhoneNumber(field, raw, null);
}
