import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { ForbiddenError, providerSignature, type FormField } from '@trackline/domain';
import { readSignedForm } from './provider-signature';

const PUBLIC = 'https://calls.trackline.test';
const TOKEN = 'twilio-test-token';
const PATH = '/telephony/twilio/voice?attempt=1';
const FIELDS: FormField[] = [
  ['CallSid', 'CA-1'],
  ['To', '+4790000101'],
];

/** A request as the HTTP server hands it over: headers, the target as received, the raw body. */
function webhook(signature: string): IncomingMessage & { originalUrl: string } {
  const body = Buffer.from(
    new URLSearchParams(FIELDS.map(([name, value]): [string, string] => [name, value])).toString(),
  );
  return Object.assign(Readable.from([body]), {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(body.length),
      'x-twilio-signature': signature,
    },
    url: PATH,
    originalUrl: PATH,
  }) as unknown as IncomingMessage & { originalUrl: string };
}

describe('readSignedForm', () => {
  it('returns the form of a webhook signed for the public URL, without a warning', async () => {
    const warn = jest.fn();
    const form = await readSignedForm(
      webhook(providerSignature(TOKEN, `${PUBLIC}${PATH}`, FIELDS)),
      PUBLIC,
      TOKEN,
      { warn },
    );
    expect(form.get('CallSid')).toBe('CA-1');
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses a webhook signed for another URL and logs the URL it checked, not the secrets', async () => {
    const warn = jest.fn();
    // The provider was configured with another address than REPLACEMENT_PUBLIC_URL.
    const signature = providerSignature(TOKEN, `https://old-host.example${PATH}`, FIELDS);
    await expect(readSignedForm(webhook(signature), PUBLIC, TOKEN, { warn })).rejects.toThrow(ForbiddenError);
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(fields.signedUrl).toBe(`${PUBLIC}${PATH}`);
    expect(message).toContain('REPLACEMENT_PUBLIC_URL');
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).not.toContain(signature);
    expect(logged).not.toContain(TOKEN);
  });
});
