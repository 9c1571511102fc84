import type { Customer } from '../customers/customer';
import type { Cdr } from '../cdrs/cdr';
import type { Partner } from '../partners/partner';
import { SAMPLE_CDR } from '../test-support/sample-cdr';
import type { ClaimedWebhookDelivery } from './webhook-deliveries.store';
import { webhookRecordSources } from '../composition/webhook-record-sources';
import { newClaimRound, WebhookPayloads } from './webhook-payloads';

const CUSTOMER = {
  id: '7',
  partnerId: '1',
  name: 'Kari',
  custnr: 'K-1',
  corporateid: null,
  email: null,
  uuid: 'b7b2d1f0-0000-4000-8000-000000000007',
  dncsClassName: null,
  receiveMonthlyReport: false,
  serviceCallerId: false,
  customFields: {},
  created: new Date('2026-11-01T00:00:00Z'),
  modified: new Date('2026-11-01T00:00:00Z'),
} as unknown as Customer;

function delivery(id: string): ClaimedWebhookDelivery {
  return {
    id,
    messageId: `msg_${id}`,
    webhookId: '3',
    partnerId: '1',
    eventType: 'customer.created',
    cdrId: null,
    cdrStart: null,
    customerId: '7',
    subjectWebhookId: null,
    occurredAt: new Date('2026-11-27T10:00:00Z'),
    url: 'https://hooks.example/in',
    secret: 'whsec_x',
    showFullAnum: false,
    attempts: 1,
  };
}

describe('webhook payloads', () => {
  function payloads(stored: Cdr | null = null) {
    const partnerReads: string[] = [];
    const recordReads: string[] = [];
    // Through the adapter the dispatcher uses: the bodies are the owners' records.
    const built = new WebhookPayloads(
      webhookRecordSources({
        cdrs: {
          findById: (_partnerId, id, start) => {
            recordReads.push(start === null ? `${id} by id` : `${id} at ${start.toISOString()}`);
            return Promise.resolve(stored);
          },
        },
        customers: { findById: () => Promise.resolve(CUSTOMER) },
        partners: {
          findById: (id) => {
            partnerReads.push(id);
            return Promise.resolve({ id, customFields: { customer: [] } } as unknown as Partner);
          },
        },
        poolHours: { exhaustedHour: () => Promise.resolve(null) },
        poolResizes: { findAt: () => Promise.resolve(null) },
      }),
    );
    return { built, partnerReads, recordReads };
  }

  it('reads the partner once for the deliveries of one claim', async () => {
    const { built, partnerReads } = payloads();
    const round = newClaimRound();
    const bodies = await Promise.all([built.body(delivery('1'), round), built.body(delivery('2'), round)]);
    expect(partnerReads).toEqual(['1']);
    expect(bodies.map((body) => body.data.customer_id)).toEqual(['7', '7']);
  });

  it('reads it anew for each claim', async () => {
    const { built, partnerReads } = payloads();
    await built.body(delivery('1'));
    await built.body(delivery('2'));
    expect(partnerReads).toEqual(['1', '1']);
  });

  it("reads a call event's record at the start kept with the delivery, and by id alone for older rows", async () => {
    const { built, recordReads } = payloads();
    const start = new Date('2026-11-27T09:59:00Z');
    const call = { ...delivery('1'), eventType: 'call.completed', customerId: null, cdrId: '42' };
    // Both records are gone here: the delivery fails for good either way.
    await expect(built.body({ ...call, cdrStart: start })).rejects.toThrow('call record 42 no longer exists');
    await expect(built.body({ ...call, cdrStart: null })).rejects.toThrow('call record 42 no longer exists');
    expect(recordReads).toEqual(['42 at 2026-11-27T09:59:00.000Z', '42 by id']);
  });

  it("reads a call's record once for its events claimed together, and anew for each claim", async () => {
    const { built, recordReads } = payloads(SAMPLE_CDR);
    const start = new Date('2026-11-27T09:59:00Z');
    const event = (id: string, eventType: string) => ({
      ...delivery(id),
      eventType,
      customerId: null,
      cdrId: '42',
      cdrStart: start,
    });
    const round = newClaimRound();
    const bodies = await Promise.all([
      built.body(event('1', 'call.completed'), round),
      built.body(event('2', 'call.missed'), round),
      built.body({ ...event('3', 'call.completed'), cdrId: '43' }, round),
    ]);
    expect(bodies.map((body) => [body.type, body.data.cdr_id])).toEqual([
      ['call.completed', '42'],
      ['call.missed', '42'],
      ['call.completed', '42'],
    ]);
    expect(recordReads).toEqual(['42 at 2026-11-27T09:59:00.000Z', '43 at 2026-11-27T09:59:00.000Z']);
    await built.body(event('4', 'call.completed'), newClaimRound());
    expect(recordReads).toHaveLength(3);
  });

  it("renders a call event's record with the claim's setting for the caller, reading no partner", async () => {
    const { built, partnerReads } = payloads(SAMPLE_CDR);
    const call = { ...delivery('1'), eventType: 'call.completed', customerId: null, cdrId: '42' };
    const masked = await built.body(call);
    const whole = await built.body({ ...call, showFullAnum: true });
    expect(masked.data).toMatchObject({ cdr_id: '42', anum: '+4798765xxx' });
    expect(whole.data).toMatchObject({ cdr_id: '42', anum: '+4798765432' });
    expect(partnerReads).toEqual([]);
  });
});
