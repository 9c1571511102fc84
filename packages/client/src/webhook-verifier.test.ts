import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhook-verifier';

// The worked example of docs/webhooks.md.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8/y+Vf5yY1k=';
const id = 'msg_5f0c2d3b9a8e4c1d8e7f6a5b4c3d2e1f';
const timestamp = '1772445600';
const body =
  '{"type":"customer.created","timestamp":"2026-03-02T10:00:00.000Z","data":{"customer_id":"1","name":"Kari Nordmann AS","custnr":"100"}}';
const signature = 'v1,E2G+CYwmByfogSiVGR135ebul2F5xP3yd9aEZGe9sBU=';
const sentAt = new Date(Number(timestamp) * 1000);
const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };

function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('verification passed');
}

describe('verifyWebhook', () => {
  it('returns the event of the worked example of docs/webhooks.md', () => {
    const event: WebhookEvent = verifyWebhook(secret, headers, body, { now: sentAt });
    expect(event).toEqual({
      type: 'customer.created',
      timestamp: '2026-03-02T10:00:00.000Z',
      data: { customer_id: '1', name: 'Kari Nordmann AS', custnr: '100' },
    });
    if (event.type === 'customer.created') expect(event.data.custnr).toBe('100');
  });

  it('accepts a delivery that the standardwebhooks package signed, and signs as it does', () => {
    const now = new Date('2026-11-25T08:00:00Z');
    const payload =
      '{"type":"webhook.test","timestamp":"2026-11-25T08:00:00.000Z","data":{"webhook_id":"7","message":"æøå"}}';
    const theirs = new Webhook(secret).sign('msg_1', now, payload);
    const seconds = String(now.getTime() / 1000);
    expect(signWebhook(secret, 'msg_1', seconds, payload)).toBe(theirs);

    const event = verifyWebhook(
      secret,
      { 'webhook-id': 'msg_1', 'webhook-timestamp': seconds, 'webhook-signature': theirs },
      Buffer.from(payload),
      { now },
    );
    expect(event).toEqual({
      type: 'webhook.test',
      timestamp: '2026-11-25T08:00:00.000Z',
      data: { webhook_id: '7', message: 'æøå' },
    });
  });

  it('accepts the right signature among several, in any letter case of the header names, from a fetch Headers', () => {
    const other = signWebhook('whsec_' + Buffer.from('another key').toString('base64'), id, timestamp, body);
    const event = verifyWebhook(
      secret,
      new Headers({
        'Webhook-Id': id,
        'Webhook-Timestamp': timestamp,
        'Webhook-Signature': `v2,abc ${other} ${signature}`,
      }),
      body,
      { now: sentAt },
    );
    expect(event.type).toBe('customer.created');
    expect(
      verifyWebhook(
        secret,
        { 'WEBHOOK-ID': id, 'Webhook-Timestamp': [timestamp], 'webhook-signature': signature },
        body,
        { now: sentAt },
      ).type,
    ).toBe('customer.created');
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
    'refuses a delivery without %s',
    (name) => {
      const without: Record<string, string> = { ...headers };
      delete without[name];
      const error = failure(() => verifyWebhook(secret, without, body, { now: sentAt }));
      expect(error.reason).toBe('missing-header');
      expect(error.message).toBe(`missing header ${name}`);
    },
  );

  it('refuses a changed body, a changed id, another secret and a signature that is not v1', () => {
    const changedBody = body.replace('"100"', '"101"');
    expect(failure(() => verifyWebhook(secret, headers, changedBody, { now: sentAt })).reason).toBe(
      'bad-signature',
    );
    expect(
      failure(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, { now: sentAt }))
        .reason,
    ).toBe('bad-signature');
    const otherSecret = 'whsec_' + Buffer.from('another key').toString('base64');
    expect(failure(() => verifyWebhook(otherSecret, headers, body, { now: sentAt })).reason).toBe(
      'bad-signature',
    );
    const asV2 = { ...headers, 'webhook-signature': signature.replace('v1,', 'v2,') };
    expect(failure(() => verifyWebhook(secret, asV2, body, { now: sentAt })).reason).toBe('bad-signature');
  });

  it('refuses a timestamp more than five minutes off either way, and honours toleranceSeconds', () => {
    const at = (seconds: number) => new Date((Number(timestamp) + seconds) * 1000);
    expect(verifyWebhook(secret, headers, body, { now: at(300) }).type).toBe('customer.created');
    expect(verifyWebhook(secret, headers, body, { now: at(-300) }).type).toBe('customer.created');
    const late = failure(() => verifyWebhook(secret, headers, body, { now: at(301) }));
    expect(late.reason).toBe('timestamp-outside-tolerance');
    expect(late.message).toBe('webhook-timestamp is 301 s old, beyond 300 s');
    const early = failure(() => verifyWebhook(secret, headers, body, { now: at(-301) }));
    expect(early.message).toBe('webhook-timestamp is 301 s in the future, beyond 300 s');
    expect(
      failure(() => verifyWebhook(secret, headers, body, { now: at(61), toleranceSeconds: 60 })).reason,
    ).toBe('timestamp-outside-tolerance');
  });

  it('refuses a timestamp that is not seconds and a secret that is not base64', () => {
    const iso = { ...headers, 'webhook-timestamp': '2026-03-02T10:00:00Z' };
    expect(failure(() => verifyWebhook(secret, iso, body, { now: sentAt })).reason).toBe('bad-timestamp');
    expect(failure(() => verifyWebhook('whsec_not base64!', headers, body, { now: sentAt })).reason).toBe(
      'bad-secret',
    );
  });

  it('refuses a correctly signed body that is not an event', () => {
    const notAnEvent = '{"type":"customer.created"}';
    const signed = { ...headers, 'webhook-signature': signWebhook(secret, id, timestamp, notAnEvent) };
    expect(failure(() => verifyWebhook(secret, signed, notAnEvent, { now: sentAt })).reason).toBe('bad-body');
  });
});
