import { ForbiddenError, parseFormBody, providerSignatureMatches } from '@trackline/domain';
import type { Request } from 'express';

/**
 * Checks the provider's signature of a request whose raw body has been read: against
 * `<publicUrl><path and query as received>` (never the Host header), X-Twilio-Signature or
 * X-SignalWire-Signature (docs/telephony.md). Wrong or missing: 403 before anything is looked at.
 * Returns the form fields by name, the first value of a repeated name.
 */
export function signedForm(
  request: Request,
  signature: { authToken: string; publicUrl: string },
): ReadonlyMap<string, string> {
  const body: unknown = request.body;
  const raw = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  const type = request.get('content-type') ?? '';
  const fields =
    raw === '' || type.toLowerCase().startsWith('application/x-www-form-urlencoded')
      ? parseFormBody(raw)
      : null;
  const given = request.get('x-twilio-signature') ?? request.get('x-signalwire-signature');
  if (
    fields === null ||
    !providerSignatureMatches(
      signature.authToken,
      `${signature.publicUrl}${request.originalUrl}`,
      fields,
      given,
    )
  )
    throw new ForbiddenError('Invalid signature');
  const form = new Map<string, string>();
  for (const [name, value] of fields) if (!form.has(name)) form.set(name, value);
  return form;
}
