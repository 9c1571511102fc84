import { createLogger } from '@trackline/platform';
import { PermanentDeliveryError } from '../notifications/delivery-channel';
import type { ClaimedWebhookDelivery, WebhookDeliveryQueue } from './webhook-deliveries.store';
import { WebhookDispatcher } from './webhook-dispatcher';
import type { WebhookAnswer, WebhookAttempt } from './webhook-sender';

const NOW = new Date('2026-03-02T10:00:00Z');

function claimed(overrides: Partial<ClaimedWebhookDelivery> = {}): ClaimedWebhookDelivery {
  return {
    id: '1',
    messageId: 'msg_1',
    webhookId: '7',
    partnerId: '3',
    eventType: 'call.completed',
    cdrId: '11',
    cdrStart: null,
    customerId: null,
    subjectWebhookId: null,
    occurredAt: NOW,
    url: 'https://hooks.example.com/in',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8/y+Vf5yY1k=',
    showFullAnum: false,
    attempts: 1,
    ...overrides,
  };
}

/** A dispatcher on a faked queue and sender; its poll is far off, so only a wake-up brings a claim. */
function dispatcherOn(
  queue: WebhookDeliveryQueue,
  send: (attempt: WebhookAttempt) => Promise<WebhookAnswer>,
  body: () => Promise<unknown>,
): WebhookDispatcher {
  return new WebhookDispatcher(
    {
      queue,
      payloads: { body: body as never },
      sender: { send, close: () => {} },
      logger: createLogger({ service: 'test', level: 'silent' }),
      clock: () => NOW,
    },
    {
      workerId: 'w',
      maxAttempts: 5,
      baseDelayMs: 10_000,
      leaseMs: 60_000,
      pollMs: 600_000,
      concurrency: 4,
      perEndpoint: 2,
      disableAfterMs: 432_000_000,
    },
  );
}

/** The dispatcher's decisions on one claimed row, with the queue, sender and bodies faked. */
async function dispatch(
  row: ClaimedWebhookDelivery,
  answer: () => Promise<WebhookAnswer>,
  body: () => Promise<unknown> = async () => ({
    type: row.eventType,
    timestamp: NOW.toISOString(),
    data: {},
  }),
) {
  const marks: unknown[] = [];
  const sent: WebhookAttempt[] = [];
  const queue: WebhookDeliveryQueue = {
    claim: async () => ({ deliveries: [row], leftWaiting: false }),
    complete: async (id, _worker, statusCode) => {
      marks.push({ id, sent: statusCode });
      return true;
    },
    fail: async (id, _worker, failure, retryAt) => {
      marks.push({ id, ...failure, retryAt: retryAt?.toISOString() ?? null });
      return true;
    },
    // An attempt's log and mark go together; the marks are kept as complete and fail keep theirs.
    logAndMark: async (attempt, _worker, mark) => {
      const id = attempt.deliveryId;
      marks.push(
        mark.sent
          ? { id, sent: mark.statusCode }
          : {
              id,
              statusCode: mark.statusCode,
              error: mark.error,
              retryAt: mark.retryAt?.toISOString() ?? null,
            },
      );
      return { owned: true, health: { failingSince: null, state: '0' } };
    },
  };
  const dispatcher = dispatcherOn(
    queue,
    async (attempt) => {
      sent.push(attempt);
      return answer();
    },
    body,
  );
  await dispatcher.runOnce();
  return { marks, sent };
}

describe('WebhookDispatcher', () => {
  it('signs the attempt with the row’s message id and the current time', async () => {
    const { marks, sent } = await dispatch(claimed(), async () => ({
      statusCode: 204,
      body: '',
      retryAfterSeconds: null,
    }));
    expect(sent).toEqual([
      expect.objectContaining({ messageId: 'msg_1', timestamp: NOW, url: 'https://hooks.example.com/in' }),
    ]);
    expect(JSON.parse(sent[0]!.body)).toEqual({
      type: 'call.completed',
      timestamp: NOW.toISOString(),
      data: {},
    });
    expect(marks).toEqual([{ id: '1', sent: 204 }]);
  });

  it('waits as long as Retry-After asks when that is longer than the backoff (at most an hour)', async () => {
    const retryAfter = async (seconds: number) =>
      (
        await dispatch(claimed({ attempts: 2 }), async () => ({
          statusCode: 429,
          body: 'slow down',
          retryAfterSeconds: seconds,
        }))
      ).marks;
    // Backoff after the second attempt: 20 s.
    expect(await retryAfter(5)).toEqual([
      expect.objectContaining({ statusCode: 429, retryAt: '2026-03-02T10:00:20.000Z' }),
    ]);
    expect(await retryAfter(120)).toEqual([
      expect.objectContaining({ statusCode: 429, retryAt: '2026-03-02T10:02:00.000Z' }),
    ]);
    expect(await retryAfter(86_400)).toEqual([
      expect.objectContaining({ statusCode: 429, retryAt: '2026-03-02T11:00:00.000Z' }),
    ]);
  });

  it('gives up after the last attempt', async () => {
    const { marks } = await dispatch(claimed({ attempts: 5 }), async () => ({
      statusCode: 503,
      body: '',
      retryAfterSeconds: null,
    }));
    expect(marks).toEqual([{ id: '1', statusCode: 503, error: 'receiver answered 503', retryAt: null }]);
  });

  it('marks dead, without sending, a row whose worker died during its last attempt', async () => {
    const { marks, sent } = await dispatch(claimed({ attempts: 6 }), async () => {
      throw new Error('must not send');
    });
    expect(sent).toEqual([]);
    expect(marks).toEqual([
      { id: '1', statusCode: null, error: 'worker lost during the last attempt', retryAt: null },
    ]);
  });

  it('marks the delivery alone when its attempt cannot be logged: the log entry is lost, not the delivery', async () => {
    const marks: unknown[] = [];
    const queue: WebhookDeliveryQueue = {
      claim: async () => ({ deliveries: [claimed()], leftWaiting: false }),
      complete: async (id, _worker, statusCode) => {
        marks.push({ id, sent: statusCode });
        return true;
      },
      fail: async () => true,
      logAndMark: async () => {
        throw new Error('value too long for type character varying(2048)');
      },
    };
    const dispatcher = dispatcherOn(
      queue,
      async () => ({ statusCode: 200, body: '', retryAfterSeconds: null }),
      async () => ({ type: 'call.completed', data: {} }),
    );
    await dispatcher.runOnce();
    expect(marks).toEqual([{ id: '1', sent: 200 }]);
  });

  it('marks dead at once when the record is gone, and retries a refused connection', async () => {
    const gone = await dispatch(
      claimed(),
      async () => ({ statusCode: 200, body: '', retryAfterSeconds: null }),
      async () => {
        throw new PermanentDeliveryError('call record 11 no longer exists');
      },
    );
    expect(gone.marks).toEqual([
      { id: '1', statusCode: null, error: 'call record 11 no longer exists', retryAt: null },
    ]);
    const refused = await dispatch(claimed(), async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:9');
    });
    expect(refused.marks).toEqual([
      {
        id: '1',
        statusCode: null,
        error: 'connect ECONNREFUSED 127.0.0.1:9',
        retryAt: '2026-03-02T10:00:10.000Z',
      },
    ]);
  });
});

// A slot that frees up claims at once only when the claim before left deliveries waiting for one
// (docs/webhooks.md, How it runs): otherwise that claim would come back empty.
describe('WebhookDispatcher, a freed slot', () => {
  /** Claims made by a running dispatcher whose first claim takes one delivery, which is sent. */
  async function claimsAroundOneDelivery(leftWaiting: boolean): Promise<number> {
    let claims = 0;
    let marked!: () => void;
    const mark = new Promise<void>((resolve) => (marked = resolve));
    const queue: WebhookDeliveryQueue = {
      claim: async () => {
        claims += 1;
        return claims === 1
          ? { deliveries: [claimed()], leftWaiting }
          : { deliveries: [], leftWaiting: false };
      },
      complete: async () => true,
      fail: async () => true,
      logAndMark: async () => {
        marked();
        return { owned: true, health: { failingSince: null, state: '0' } };
      },
    };
    const dispatcher = dispatcherOn(
      queue,
      async () => ({ statusCode: 200, body: '', retryAfterSeconds: null }),
      async () => ({ type: 'call.completed', data: {} }),
    );
    dispatcher.start();
    await mark;
    // The slot frees once the mark has returned; a wake-up's claim follows within a few turns.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    await dispatcher.stop();
    return claims;
  }

  it('claims again when the claim left deliveries waiting for a slot', async () => {
    expect(await claimsAroundOneDelivery(true)).toBe(2);
  });

  it('does not when nothing was left: deliveries committed later ring the bell, the poll finds the rest', async () => {
    expect(await claimsAroundOneDelivery(false)).toBe(1);
  });
});
