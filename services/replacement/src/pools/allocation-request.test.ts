import { CUSTOMER_EVENTS_MAXLEN, customerMarker, encodeCustomerSeenEvent } from '@trackline/contracts';
import { allocationArguments, type AllocationRequest } from './allocation-request';

// The positions lua/allocate-numbers.lua reads (its header lists them): a change here that the
// script does not follow fails this test and the allocation tests.
function request(overrides: Partial<AllocationRequest> = {}): AllocationRequest {
  return {
    now: 1_764_201_234_567,
    sessionTtlMs: 1_800_000,
    releaseAt: 1_764_203_094_567,
    releaseOffset: 0,
    onExhausted: 'recycle',
    newSessionId: '0b5c2f7e-93a4-4c11-8f2e-5d6a7b8c9d0e',
    sessionMayExist: true,
    context: {
      type: 'web',
      trackingId: 't-1',
      fullUrl: 'https://example.com/',
      fullReferrer: '',
      custnr: null,
      parameters: {},
    },
    customer: null,
    numbersOnPage: ['+4722334455', '+4723456789'],
    ...overrides,
  };
}

describe('allocationArguments', () => {
  it('lays out the times, mode, id, context, customer and numbers where the script reads them', () => {
    const args = allocationArguments(request());
    expect(args.slice(0, 6)).toEqual([
      '1764201234567',
      '1800000',
      '1764203094567',
      '1764203034567',
      '1r',
      '0b5c2f7e-93a4-4c11-8f2e-5d6a7b8c9d0e',
    ]);
    expect(JSON.parse(args[6]!)).toMatchObject({ type: 'web', tracking_id: 't-1', full_referrer: '' });
    // No customer to check: the numbers follow the context (the script is called with four keys).
    expect(args.slice(7)).toEqual(['+4722334455', '+4723456789']);
  });

  it('scores above the release time by the thousandths an earlier request of the millisecond took', () => {
    expect(allocationArguments(request({ releaseOffset: 1 }))[2]).toBe('1764203094567.001');
    expect(allocationArguments(request({ releaseOffset: 13 }))[2]).toBe('1764203094567.013');
    // Past a thousand in one millisecond the score runs into the next one: held a millisecond longer.
    expect(allocationArguments(request({ releaseOffset: 1_002 }))[2]).toBe('1764203094568.002');
  });

  it('puts a customer to check between the context and the numbers', () => {
    const customer = { advId: 'acme', custnr: 'D-1', at: 1 };
    const args = allocationArguments(
      request({ customer: { event: customer, marker: customerMarker(customer) } }),
    );
    expect(args).toHaveLength(12);
    expect(args.slice(7, 9)).toEqual(['D-1', customerMarker(customer)]);
    expect(args.slice(10)).toEqual(['+4722334455', '+4723456789']);
  });

  it('puts both flags in the mode the script compares whole', () => {
    const modes = [true, false].flatMap((sessionMayExist) =>
      (['recycle', 'original'] as const).map(
        (onExhausted) => allocationArguments(request({ sessionMayExist, onExhausted }))[4],
      ),
    );
    expect(modes).toEqual(['1r', '1o', '0r', '0o']);
  });

  it("sends the stream's MAXLEN first in the event argument, then the event's fields, NUL-separated", () => {
    const customer = { advId: 'acme', custnr: 'Ø-1 "x"', custname: '', custemail: 'å@ø.no', at: 1 };
    const args = allocationArguments(
      request({ customer: { event: customer, marker: customerMarker(customer) } }),
    );
    expect(args[7]).toBe('Ø-1 "x"');
    expect(args[8]).toBe(customerMarker(customer));
    expect(args[9]!.split('\u0000')).toEqual([
      String(CUSTOMER_EVENTS_MAXLEN),
      ...encodeCustomerSeenEvent(customer),
    ]);
  });

  it('refuses an event field holding the separator, which would shift every field after it', () => {
    const customer = { advId: 'acme', custnr: 'D-1', custname: 'a\u0000b', at: 1 };
    expect(() => allocationArguments(request({ customer: { event: customer, marker: 'm' } }))).toThrow(
      RangeError,
    );
  });
});
