import { CUSTOMER_SEEN_RESEND_MS, customerMarker, type CustomerSeenEvent } from '@trackline/contracts';
import { SentCustomerMemory } from './sent-customers.memory';

const HOUR_START = 400 * CUSTOMER_SEEN_RESEND_MS;

function customer(custnr: string, values: Partial<CustomerSeenEvent> = {}): CustomerSeenEvent {
  return {
    advId: 'acme',
    custnr,
    custname: 'Dealer AS',
    custemail: 'post@dealer.no',
    at: HOUR_START + 10,
    ...values,
  };
}

describe('SentCustomerMemory', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000;
  });

  it('knows a confirmed customer for its ttl, and only that partner and custnr', () => {
    const memory = new SentCustomerMemory(1_000, clock);
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(false);
    memory.confirm('acme', customer('D-1'));
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(true);
    expect(memory.isCurrent('acme', customer('D-2'))).toBe(false);
    expect(memory.isCurrent('other', customer('D-1'))).toBe(false);
    now += 999;
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(true);
    now += 1;
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(false);
  });

  it('takes a customer for the one confirmed exactly when their markers are the same', () => {
    const memory = new SentCustomerMemory(1_000, clock);
    const confirmed = customer('D-1');
    memory.confirm('acme', confirmed);
    const others = [
      customer('D-1', { at: HOUR_START + CUSTOMER_SEEN_RESEND_MS - 1 }),
      customer('D-1', { at: HOUR_START + CUSTOMER_SEEN_RESEND_MS }),
      customer('D-1', { custname: 'Dealer A/S' }),
      customer('D-1', { custemail: '' }),
      customer('D-1', { custname: undefined }),
      customer('D-1', { custemail: undefined }),
    ];
    for (const other of others) {
      expect(memory.isCurrent('acme', other)).toBe(customerMarker(other) === customerMarker(confirmed));
    }
    memory.confirm('acme', customer('D-2', { custname: undefined }));
    expect(memory.isCurrent('acme', customer('D-2', { custname: undefined }))).toBe(true);
    expect(memory.isCurrent('acme', customer('D-2', { custname: '' }))).toBe(false);
  });

  it('keeps the latest customer confirmed for a custnr', () => {
    const memory = new SentCustomerMemory(1_000, clock);
    memory.confirm('acme', customer('D-1'));
    memory.confirm('acme', customer('D-1', { custname: 'Renamed AS' }));
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(false);
    expect(memory.isCurrent('acme', customer('D-1', { custname: 'Renamed AS' }))).toBe(true);
  });

  it('remembers nothing with a ttl of 0', () => {
    const memory = new SentCustomerMemory(0, clock);
    memory.confirm('acme', customer('D-1'));
    expect(memory.isCurrent('acme', customer('D-1'))).toBe(false);
  });

  it('stays bounded: with 10,000 custnrs remembered, a new one starts it over', () => {
    const memory = new SentCustomerMemory(60_000, clock);
    for (let i = 0; i < 5_000; i++) memory.confirm('acme', customer(`C-${i}`));
    for (let i = 0; i < 5_000; i++) memory.confirm('other', customer(`C-${i}`));
    // Confirming one it holds again does not count twice.
    memory.confirm('acme', customer('C-0', { custname: 'Renamed AS' }));
    expect(memory.isCurrent('other', customer('C-4999'))).toBe(true);
    memory.confirm('acme', customer('new'));
    expect(memory.isCurrent('acme', customer('new'))).toBe(true);
    expect(memory.isCurrent('acme', customer('C-1'))).toBe(false);
    expect(memory.isCurrent('other', customer('C-4999'))).toBe(false);
  });
});
