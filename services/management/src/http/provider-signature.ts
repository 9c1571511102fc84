import { ForbiddenError, parseFormBody, providerSignatureMatches } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { Request } from 'express';

/**
 * Checks the provider's signature of a request whose raw body has been read: against
 * `<publicUrl><path and query as received>` (never the Host header), X-Twilio-Signature or
 * X-SignalWire-Signature (docs/telephony.md). Wrong or missing: 403 before anything is looked at,
 * and a warning naming the URL the signature was checked against: a provider signs the URL it was
 * configured with, so a MANAGEMENT_PUBLIC_URL that differs from it refuses every webhook, and that
 * line shows the difference. Never the signature or the token.
 * Returns the form fields by name, the first value of a repeated name.
 */
export function signedForm(
  request: Request,
  signature: { authToken: string; publicUrl: string },
  log: Pick<Logger, 'warn'>,
): ReadonlyMap<string, string> {
  const body: unknown = request.body;
  const raw = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  const type = request.get('content-type') ?? '';
  const fields =
    raw === '' || type.toLowerCase().startsWith('application/x-www-form-urlencoded')
      ? parseFormBody(raw)
      : null;
  const given = request.get('x-twilio-signature') ?? request.get('x-signalwire-signature');
  const signedUrl = `${signature.publicUrl}${request.originalUrl}`;
  if (fields === null || !providerSignatureMatches(signature.authToken, signedUrl, fields, given)) {
    log.warn(
      { signedUrl, signaturePresent: given !== undefined, formBody: fields !== null },
      'provider webhook refused: its signature does not match this URL (is MANAGEMENT_PUBLIC_URL the URL the provider calls?)',
    );
    throw new ForbiddenError('Invalid signature');
  }
  const form = new Map<string, string>();
  for (const [name, value] of fields) if (!form.has(name)) form.set(name, value);
  return form;
}
