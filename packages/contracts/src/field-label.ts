/** Names longer than this are no field of either service (custom field names stop at 63 characters). */
export const MAX_NAME_LENGTH = 100;

const PLAIN_NAME = /^[A-Za-z0-9_.[\]-]+$/;

/**
 * A request's field or parameter name as an error message shows it: plain names bare (`email`),
 * anything else quoted, with unprintable characters as `?` and cut at 64 characters, so the
 * message still starts with the field and stays readable whatever the client sent.
 */
export function fieldLabel(name: string): string {
  if (name === '') return '(empty name)';
  if (PLAIN_NAME.test(name) && name.length <= MAX_NAME_LENGTH) return name;
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return JSON.stringify(shown.replace(/[^\x20-\x7e…]/g, '?'));
}
