import type { Cdr } from '../cdrs/cdr';
import type { StoredIntegration } from '../integrations/integration';
import { SAMPLE_CDR } from '../test-support/sample-cdr';
import { SAMPLE_GA4 } from '../test-support/sample-integration';
import type { QueuedConversion } from './conversion-outbox.store';
import { conversionQueue } from './conversion-queue';

const WITH_CLIENT_ID: Cdr = {
  ...SAMPLE_CDR,
  marketing: { gclid: null, gbraid: null, wbraid: null, gaClientId: '555.666', gaSessionId: null },
};

/** The queue on stores that answer from memory and count the integration reads. */
function queueCounting(stored: readonly StoredIntegration[]) {
  const reads: string[] = [];
  const queued: QueuedConversion[] = [];
  const queue = conversionQueue({
    integrations: {
      list: async (partnerId) => {
        reads.push(partnerId);
        return [...stored];
      },
    },
    outbox: {
      enqueue: async () => undefined,
      enqueueMany: async (conversions) => {
        queued.push(...conversions);
      },
    },
  });
  return { queue, reads, queued };
}

// docs/conversions.md, Delivery: a record's conversions are queued in its transaction, from the
// integrations its batch's lookup read.
describe('conversionQueue.enqueueCalls', () => {
  it('queues from the integrations the batch read, without a read of its own', async () => {
    const { queue, reads, queued } = queueCounting([]);

    const count = await queue.enqueueCalls([WITH_CLIENT_ID, { ...WITH_CLIENT_ID, id: '43' }], (partnerId) =>
      partnerId === WITH_CLIENT_ID.partnerId ? [SAMPLE_GA4] : undefined,
    );

    expect(reads).toEqual([]);
    expect(count).toBe(2);
    expect(queued.map(({ record }) => record.id)).toEqual(['42', '43']);
  });

  it("reads a partner's integrations once when the batch did not", async () => {
    const { queue, reads } = queueCounting([SAMPLE_GA4]);

    const count = await queue.enqueueCalls([WITH_CLIENT_ID, { ...WITH_CLIENT_ID, id: '43' }]);

    expect(reads).toEqual([WITH_CLIENT_ID.partnerId]);
    expect(count).toBe(2);
  });

  it('reads nothing for records without click or analytics ids', async () => {
    const { queue, reads } = queueCounting([SAMPLE_GA4]);
    const none: Cdr = {
      ...SAMPLE_CDR,
      marketing: { gclid: null, gbraid: null, wbraid: null, gaClientId: null, gaSessionId: null },
    };

    expect(await queue.enqueueCalls([none])).toBe(0);
    expect(reads).toEqual([]);
  });
});
