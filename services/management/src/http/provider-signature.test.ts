import { ForbiddenError, providerSignature, type FormField } from '@trackline/domain';
import type { Request } from 'express';
import { signedForm } from './provider-signature';

const PUBLIC = 'https://manage.trackline.test';
const TOKEN = 'twilio-test-token';
const PATH = '/telephony/twilio/recording?to=%2B4790000101';
const FIELDS: FormField[] = [
  ['CallSid', 'CA-1'],
  ['RecordingSid', 'RE-1'],
];

/** What the route sees once the raw body parser has run: the headers, the target and the raw body. */
function webhook(signature: string): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'x-twilio-signature': signature,
  };
  return {
    body: Buffer.from(
      new URLSearchParams(FIELDS.map(([name, value]): [string, string] => [name, value])).toString(),
    ),
    originalUrl: PATH,
    get: (name: string) => headers[name.toLowerCase()],
  } as unknown as Request;
}

describe('signedForm', () => {
  it('returns the form of a webhook signed for the public URL, without a warning', () => {
    const warn = jest.fn();
    const signature = providerSignature(TOKEN, `${PUBLIC}${PATH}`, FIELDS);
    const form = signedForm(webhook(signature), { authToken: TOKEN, publicUrl: PUBLIC }, { warn });
    expect(form.get('RecordingSid')).toBe('RE-1');
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses a webhook signed for another URL and logs the URL it checked, not the secrets', () => {
    const warn = jest.fn();
    // The provider was configured with another address than MANAGEMENT_PUBLIC_URL.
    const signature = providerSignature(TOKEN, `http://127.0.0.1:8443${PATH}`, FIELDS);
    expect(() => signedForm(webhook(signature), { authToken: TOKEN, publicUrl: PUBLIC }, { warn })).toThrow(
      ForbiddenError,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(fields.signedUrl).toBe(`${PUBLIC}${PATH}`);
    expect(message).toContain('MANAGEMENT_PUBLIC_URL');
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).not.toContain(signature);
    expect(logged).not.toContain(TOKEN);
  });
});
