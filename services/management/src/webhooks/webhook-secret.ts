import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
// The Standard Webhooks specification asks for 24 to 64 random bytes.
const SECRET_BYTES = 32;

/** A fresh signing secret in the Standard Webhooks form: `whsec_` + base64 of the key. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}
