import type { CallAttribution } from '@trackline/contracts';
import type { DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import { chooseSource } from './cdr-source';

const STATIC: DialledNumber = {
  partnerId: '1',
  advId: 'acme',
  timeZone: 'Europe/Oslo',
  country: 'NO',
  kind: 'static',
  heldUntil: null,
};
const POOL: DialledNumber = { ...STATIC, kind: 'pool' };
const CALL = { bnum: '+4740000001', start: new Date('2026-03-02T09:00:00Z') };

function source(id: string, fields: Partial<CdrSource> = {}): CdrSource {
  return {
    id,
    customerId: '20',
    custnr: 'K-1',
    name: `Source ${id}`,
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

function routed(fields: Partial<CallAttribution>): CallAttribution {
  return {
    callId: 'c-1',
    advId: 'acme',
    anum: '+4791234567',
    bnum: CALL.bnum,
    at: '2026-03-02T09:00:00.000Z',
    action: 'dial',
    target: null,
    sourceId: null,
    customerId: null,
    vmGreetingId: null,
    sessionId: null,
    trackingId: null,
    fullUrl: null,
    fullReferrer: null,
    custnr: null,
    parameters: null,
    quarantined: false,
    kind: 'none',
    boundAt: null,
    ...fields,
  };
}

/** Sources by id and active sources by phonenr, as the partner's store holds them. */
function stores(
  byId: Record<string, CdrSource>,
  byPhonenr: Record<string, CdrSource>,
  statics: CdrSource[] = [],
) {
  return {
    cdrs: {
      findSourceById: async (_partnerId: string, id: string) => byId[id] ?? null,
      findActiveSourceByPhonenr: async (_partnerId: string, phonenr: string) => byPhonenr[phonenr] ?? null,
    },
    lookup: { staticSources: () => statics, sourceById: () => undefined },
  };
}

describe('chooseSource', () => {
  it("gives a static number's call to its open source", async () => {
    const open = source('1');
    const { cdrs, lookup } = stores({}, {}, [open]);
    expect(await chooseSource(cdrs, lookup, STATIC, null, CALL)).toEqual({ source: open, heldBack: false });
  });

  it('gives a call during the hold-back to the source that closed, held back', async () => {
    const closed = source('1', { status: 'closed', closedAt: new Date('2026-03-01T09:00:00Z') });
    const { cdrs, lookup } = stores({}, {}, [closed]);
    const held = { ...STATIC, heldUntil: new Date('2026-03-05T00:00:00Z') };
    expect(await chooseSource(cdrs, lookup, held, null, CALL)).toEqual({ source: closed, heldBack: true });
  });

  it('leaves a pool-number call without an attribution unattributed', async () => {
    const { cdrs, lookup } = stores({ '1': source('1') }, {});
    expect(await chooseSource(cdrs, lookup, POOL, null, CALL)).toEqual({ source: null, heldBack: false });
  });

  it('takes the source replacement named, else the one whose number the page showed', async () => {
    const named = source('1');
    const shown = source('2', { status: 'active' });
    const { cdrs, lookup } = stores({ '1': named }, { '+4722334455': shown });
    expect(
      await chooseSource(cdrs, lookup, POOL, routed({ sourceId: '1', target: '+4722334455' }), CALL),
    ).toEqual({
      source: named,
      heldBack: false,
    });
    // Deleted since replacement routed the call: the page's number decides.
    expect(
      await chooseSource(cdrs, lookup, POOL, routed({ sourceId: '9', target: '+4722334455' }), CALL),
    ).toEqual({
      source: shown,
      heldBack: false,
    });
    expect(await chooseSource(cdrs, lookup, POOL, routed({ sourceId: '9' }), CALL)).toEqual({
      source: null,
      heldBack: false,
    });
  });
});
