import type { CallAttribution } from '@trackline/contracts';
import type { CustomerSeen } from '../customers/customers.store';
import type { DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import { chooseCustomer } from './cdr-customer';

const STATIC: DialledNumber = {
  partnerId: '1',
  advId: 'acme',
  timeZone: 'Europe/Oslo',
  country: 'NO',
  kind: 'static',
  heldUntil: null,
};
const POOL: DialledNumber = { ...STATIC, kind: 'pool' };

function source(fields: Partial<CdrSource> = {}): CdrSource {
  return {
    id: '10',
    customerId: '20',
    custnr: 'K-1',
    name: 'Front page',
    campaignId: null,
    media: null,
    sourceClass: 'web',
    expire: null,
    publisherId: null,
    status: 'active',
    closedAt: null,
    email: null,
    smsnumber: null,
    notifyOnMissedCall: false,
    notifyOnNewVoicemail: false,
    ...fields,
  };
}

function session(custnr: string | null, parameters: Record<string, string> = {}): CallAttribution {
  return {
    callId: 'c-1',
    advId: 'acme',
    anum: '+4791234567',
    bnum: '+4740000001',
    at: '2026-03-02T09:00:00.000Z',
    action: 'dial',
    target: '+4722334455',
    sourceId: null,
    customerId: null,
    vmGreetingId: null,
    sessionId: '4f0c1a52-7a8e-4f51-9b43-1d2c3b4a5e6f',
    trackingId: 'visitor-1',
    fullUrl: null,
    fullReferrer: null,
    custnr,
    parameters,
    quarantined: false,
    kind: 'session',
    boundAt: null,
  };
}

/** The stores' side: customers that still exist, the locks taken and the customers ensured. */
function world(existing: string[], known: Record<string, string> = {}) {
  const locked: string[] = [];
  const ensured: Array<{ custnr: string; seen: CustomerSeen }> = [];
  return {
    locked,
    ensured,
    cdrs: {
      lockCustomer: async (_partnerId: string, customerId: string) => {
        locked.push(customerId);
        return existing.includes(customerId);
      },
    },
    customers: {
      ensureSeen: async (_partnerId: string, custnr: string, seen: CustomerSeen) => {
        ensured.push({ custnr, seen });
        existing.push('99');
        return { id: '99', created: true };
      },
    },
    lookup: { customerId: (_partnerId: string, custnr: string) => known[custnr] },
  };
}

describe('chooseCustomer', () => {
  it("gives a static number's call to its open source's customer without a lock", async () => {
    const w = world([]);
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, STATIC, null, source())).toEqual({
      id: '20',
      custnr: 'K-1',
    });
    expect(w.locked).toEqual([]);
  });

  it('locks the customer of a closed source, and leaves the call to nobody when it is gone', async () => {
    const closed = source({ status: 'closed' });
    const kept = world(['20']);
    expect(await chooseCustomer(kept.cdrs, kept.customers, kept.lookup, STATIC, null, closed)).toEqual({
      id: '20',
      custnr: 'K-1',
    });
    expect(kept.locked).toEqual(['20']);
    const gone = world([]);
    expect(await chooseCustomer(gone.cdrs, gone.customers, gone.lookup, STATIC, null, closed)).toBeNull();
  });

  it('leaves a call without a source and without a session customer to nobody', async () => {
    const w = world([]);
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, POOL, session('  '), null)).toBeNull();
  });

  it('gives a pool-number call to the customer its session named, known to the batch', async () => {
    const w = world(['30'], { 'K-2': '30' });
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, POOL, session('K-2'), source())).toEqual({
      id: '30',
      custnr: 'K-2',
    });
    expect(w.locked).toEqual(['30']);
    expect(w.ensured).toEqual([]);
  });

  it("keeps the source's customer when the session named the same custnr", async () => {
    const w = world([]);
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, POOL, session('K-1'), source())).toEqual({
      id: '20',
      custnr: 'K-1',
    });
  });

  it('creates the customer the session named when the stream has not yet, from its name and e-mail', async () => {
    const w = world([]);
    const named = session('K-3', { custname: ' Kari ', custemail: 'not an address' });
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, POOL, named, null)).toEqual({
      id: '99',
      custnr: 'K-3',
      created: true,
    });
    expect(w.ensured).toEqual([{ custnr: 'K-3', seen: { name: 'Kari' } }]);
    expect(w.locked).toEqual(['99']);
  });

  it('ignores the custnr on a static number: the source decides', async () => {
    const w = world([]);
    expect(await chooseCustomer(w.cdrs, w.customers, w.lookup, STATIC, session('K-2'), source())).toEqual({
      id: '20',
      custnr: 'K-1',
    });
  });
});
