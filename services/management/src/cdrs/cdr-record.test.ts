import type { Cdr } from './cdr';
import { toCdrRecord } from './cdr-record';

const cdr: Cdr = {
  id: '42',
  callId: 'call-42',
  partnerId: '1',
  customerId: '7',
  custnr: 'B-7',
  sourceId: '13',
  campaignId: '4',
  pricingModelId: '55e3d998-ee46-447f-a45a-6d98f9f9d120',
  start: new Date('2026-11-27T07:00:01Z'),
  durationSeconds: 64,
  anum: '+4798765432',
  bnum: '+4791000001',
  cnum: null,
  answered: true,
  voicemail: false,
  anumNdcName: 'mobile',
  quarantined: false,
  commission: '5.50',
  media: 'web',
  sourceClass: 'standard',
  expire: null,
  publisherId: null,
  cliId: null,
  orderId: null,
  sessionId: 'b0c4a0d2-3f5e-4c1b-9a57-0d6f2c1e8a90',
  trackingId: 'visitor-1',
  fullUrl: 'https://www.example.no/ad/1234',
  fullReferrer: 'https://www.google.com/',
  parameters: { custnr: 'B-7', adId: '1234' },
  attribution: 'session',
  boundSeconds: 12,
  marketing: { gclid: 'Cj0K', gbraid: null, wbraid: null, gaClientId: null, gaSessionId: null },
  outcome: {
    status: 'sale',
    value: '1200.00',
    currency: 'NOK',
    note: null,
    at: new Date('2026-11-27T09:30:00Z'),
  },
  stirVerstat: null,
  spamScore: 10,
  spamReasons: [],
  spam: false,
  spamMarked: null,
  hasRecording: false,
  timestamp: new Date('2026-11-27T07:01:05Z'),
};

describe('toCdrRecord', () => {
  it('renders the basic record, the caller masked unless shown whole', () => {
    expect(toCdrRecord(cdr, { extended: false, showFullAnum: false })).toEqual({
      cdr_id: '42',
      start: '2026-11-27 07:00:01',
      duration: '64',
      anum: '+4798765xxx',
      bnum: '+4791000001',
      cnum: null,
      customer_id: '7',
      source_id: '13',
      custnr: 'B-7',
      answered: '1',
      anum_ndc_name: 'mobile',
    });
    expect(toCdrRecord(cdr, { extended: false, showFullAnum: true }).anum).toBe('+4798765432');
  });

  it('starts the extended record with the basic one, in the same order, then the extended fields', () => {
    const basic = toCdrRecord(cdr, { extended: false, showFullAnum: false });
    const extended = toCdrRecord(cdr, { extended: true, showFullAnum: false });
    // Both orders are held through the API by cdrs.integration.test.ts; here, that the two shapes agree.
    const basicFields = Object.keys(basic);
    expect(basicFields).toHaveLength(11);
    expect(Object.keys(extended).slice(0, basicFields.length)).toEqual(basicFields);
    expect(Object.keys(extended)).toHaveLength(basicFields.length + 33);
    for (const field of basicFields) expect(extended[field]).toEqual(basic[field]);
    expect(extended).toMatchObject({
      timestamp: '2026-11-27 07:01:05',
      bound_seconds: '12',
      outcome_status: 'sale',
      outcome_modified: '2026-11-27 09:30:00',
      spam_score: '10',
      spam_reasons: '',
      spam: '0',
    });
  });
});
