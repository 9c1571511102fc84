import { ValidationError } from '@trackline/domain';

/** The form fields of a signed provider webhook (http/provider-signature.ts), by name. */
export type WebhookForm = ReadonlyMap<string, string>;

/** A required field, checked against a rule; 400 naming it otherwise. */
export function requiredField(form: WebhookForm, name: string, pattern: RegExp, rule: string): string {
  const value = form.get(name);
  if (value === undefined || value === '') throw new ValidationError(name, 'is required');
  if (!pattern.test(value)) throw new ValidationError(name, rule);
  return value;
}

/** The call id rule of the call records (1 to 128 printable characters without spaces). */
export const CALL_SID_PATTERN = /^[\x21-\x7e]{1,128}$/;
export const CALL_SID_RULE = 'must be 1 to 128 printable characters without spaces';
