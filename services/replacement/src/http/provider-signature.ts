import type { IncomingMessage } from 'node:http';
import { ForbiddenError, parseFormBody, providerSignatureMatches, type FormField } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import { readRawBody } from './raw-body';

// A voice webhook is a few dozen short fields; 64 KiB leaves room for long SIP headers.
const MAX_FORM_BYTES = 64 * 1024;

/**
 * Reads a provider webhook and checks its signature against the public URL of the request
 * (`<public base URL><path and query as received>`, never the Host header): X-Twilio-Signature, or
 * X-SignalWire-Signature from SignalWire. Wrong or missing: 403 before anything else happens, and
 * a warning naming the URL the signature was checked against: a provider signs the URL it was
 * configured with, so a REPLACEMENT_PUBLIC_URL that differs from it refuses every call, and that
 * line shows the difference. Never the signature or the token.
 */
export async function readSignedForm(
  req: IncomingMessage & { originalUrl?: string },
  publicUrl: string,
  authToken: string,
  log: Pick<Logger, 'warn'>,
): Promise<ReadonlyMap<string, string>> {
  const raw = await readRawBody(req, MAX_FORM_BYTES);
  const type = req.headers['content-type'] ?? '';
  const fields: FormField[] | null =
    raw.length === 0 || type.toLowerCase().startsWith('application/x-www-form-urlencoded')
      ? parseFormBody(raw.toString('utf8'))
      : null;
  const signature = header(req, 'x-twilio-signature') ?? header(req, 'x-signalwire-signature');
  const url = `${publicUrl}${req.originalUrl ?? req.url ?? ''}`;
  if (fields === null || !providerSignatureMatches(authToken, url, fields, signature)) {
    log.warn(
      { signedUrl: url, signaturePresent: signature !== undefined, formBody: fields !== null },
      'provider webhook refused: its signature does not match this URL (is REPLACEMENT_PUBLIC_URL the URL the provider calls?)',
    );
    // An unsigned body is refused the same way as a badly signed one, so nothing is parsed for strangers.
    throw new ForbiddenError('Invalid signature');
  }
  const form = new Map<string, string>();
  for (const [name, value] of fields) if (!form.has(name)) form.set(name, value);
  return form;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
