import { createHash } from 'node:crypto';
import { marketingIdsOf } from '@trackline/contracts';
import type { Cdr } from '../cdrs/cdr';
import type { Ga4Integration, GoogleAdsIntegration } from '../integrations/integration';
import { callConversions, outcomeConversions } from './conversion-planner';
import type { ClaimedConversion } from './conversion-outbox.store';
import { ga4Body } from './ga4-event';
import { clickConversion, conversionDateTime, hashedPhoneNumber } from './google-ads-conversion';
import { verdicts } from './google-ads-uploader';

const START = new Date('2026-03-02T08:05:00Z');
const googleAds: GoogleAdsIntegration & { id: string } = {
  id: '5',
  kind: 'google_ads',
  paused: false,
  customerId: '4445556666',
  loginCustomerId: null,
  conversionActionId: '777',
  outcomeConversionActionId: null,
  callMinDuration: 60,
  outcomeStatuses: ['qualified', 'sale'],
  enhancedConversions: false,
  oauthClientId: 'client',
  secrets: { oauthClientSecret: 's', refreshToken: 'r', developerToken: 'd' },
  modified: START,
};
const ga4: Ga4Integration & { id: string } = {
  id: '6',
  kind: 'ga4',
  paused: false,
  measurementId: 'G-X1234',
  secrets: { apiSecret: 'a' },
  modified: START,
};

function call(
  fields: Partial<Cdr> = {},
  parameters: Record<string, string> = { gclid: 'g-1', ga_client_id: '1.2' },
) {
  return {
    id: '42',
    answered: true,
    durationSeconds: 61,
    start: START,
    anum: '+4791234567',
    marketing: marketingIdsOf(parameters),
    outcome: null,
    ...fields,
  } as Cdr;
}

function claimed(fields: Partial<ClaimedConversion> = {}): ClaimedConversion {
  return {
    id: '1',
    partnerId: '9',
    cdrId: '42',
    cdrStart: null,
    destination: 'google_ads',
    orderId: 'trackline-42-call',
    outcome: null,
    occurredAt: START,
    attempts: 1,
    ...fields,
  };
}

describe('which calls and outcomes become conversions', () => {
  it('queues an answered call for GA4 by its client id and for Google Ads past the minimum duration', () => {
    expect(callConversions(call(), [googleAds, ga4]).map((c) => [c.destination, c.orderId])).toEqual([
      ['google_ads', 'trackline-42-call'],
      ['ga4', 'trackline-42-call'],
    ]);
    // Exactly the minimum is not longer than it.
    expect(
      callConversions(call({ durationSeconds: 60 }), [googleAds, ga4]).map((c) => c.destination),
    ).toEqual(['ga4']);
    expect(callConversions(call({ answered: false }), [googleAds, ga4])).toEqual([]);
    expect(
      callConversions(call({}, { ga_client_id: '1.2' }), [googleAds, ga4]).map((c) => c.destination),
    ).toEqual(['ga4']);
    expect(callConversions(call({}, { wbraid: 'w-1' }), [googleAds, ga4]).map((c) => c.destination)).toEqual([
      'google_ads',
    ]);
    expect(
      callConversions(call(), [
        { ...googleAds, paused: true },
        { ...ga4, paused: true },
      ]),
    ).toEqual([]);
  });

  it('queues an outcome per status: GA4 for every one, Google Ads for the statuses that count', () => {
    const at = new Date('2026-03-03T10:00:00Z');
    const sale = call({ outcome: { status: 'sale', value: '10.00', currency: 'NOK', note: null, at } });
    expect(outcomeConversions(sale, [googleAds, ga4])).toEqual([
      {
        destination: 'google_ads',
        integrationId: '5',
        orderId: 'trackline-42-sale',
        outcome: { status: 'sale', value: '10.00', currency: 'NOK' },
        occurredAt: at,
      },
      {
        destination: 'ga4',
        integrationId: '6',
        orderId: 'trackline-42-sale',
        outcome: { status: 'sale', value: '10.00', currency: 'NOK' },
        occurredAt: at,
      },
    ]);
    const lead = call({ outcome: { status: 'lead', value: null, currency: null, note: null, at } });
    expect(outcomeConversions(lead, [googleAds, ga4]).map((c) => c.destination)).toEqual(['ga4']);
  });
});

describe('what is sent', () => {
  it('writes conversion times as Google Ads reads them', () => {
    expect(conversionDateTime(START)).toBe('2026-03-02 08:05:00+00:00');
  });

  it('hashes only an E.164 caller, and only with enhanced conversions on', () => {
    expect(hashedPhoneNumber('+4791234567')).toBe(createHash('sha256').update('+4791234567').digest('hex'));
    expect(hashedPhoneNumber('anonymous')).toBeNull();
    expect(hashedPhoneNumber('1881')).toBeNull();
    expect(clickConversion(call(), claimed(), googleAds)).toEqual({
      gclid: 'g-1',
      conversionAction: 'customers/4445556666/conversionActions/777',
      conversionDateTime: '2026-03-02 08:05:00+00:00',
      orderId: 'trackline-42-call',
    });
    const enhanced = clickConversion(call(), claimed(), { ...googleAds, enhancedConversions: true });
    expect(enhanced.userIdentifiers).toEqual([{ hashedPhoneNumber: hashedPhoneNumber('+4791234567') }]);
    expect(JSON.stringify(enhanced)).not.toContain('91234567');
  });

  it('sends an outcome to its own conversion action with its value', () => {
    const row = claimed({
      orderId: 'trackline-42-sale',
      outcome: { status: 'sale', value: '1500.5', currency: 'EUR' },
    });
    expect(clickConversion(call(), row, { ...googleAds, outcomeConversionActionId: '888' })).toMatchObject({
      conversionAction: 'customers/4445556666/conversionActions/888',
      conversionValue: 1500.5,
      currencyCode: 'EUR',
    });
  });

  it('builds the GA4 event with microseconds and the session id, and nothing of the caller', () => {
    const body = ga4Body(
      call({}, { ga_client_id: '1.2', ga_session_id: '1700' }),
      claimed({ destination: 'ga4' }),
    );
    expect(body).toEqual({
      client_id: '1.2',
      timestamp_micros: START.getTime() * 1000,
      events: [
        { name: 'phone_call', params: { session_id: '1700', engagement_time_msec: 1, call_duration: 61 } },
      ],
    });
    const outcome = ga4Body(
      call(),
      claimed({ destination: 'ga4', outcome: { status: 'not_a_lead', value: null, currency: null } }),
    );
    expect(outcome.events).toEqual([{ name: 'disqualify_lead', params: { engagement_time_msec: 1 } }]);
  });
});

describe('reading a partial failure back', () => {
  const failure = (errors: unknown[]) => ({
    results: [],
    partialFailureError: { code: 3, details: [{ errors }] },
  });
  const at = (index: number | undefined, code: string) => ({
    errorCode: { conversionUploadError: code },
    message: code.toLowerCase(),
    location: {
      fieldPathElements: [
        { fieldName: 'conversions', ...(index === undefined ? {} : { index }) },
        { fieldName: 'gclid' },
      ],
    },
  });

  it('puts each error on the conversion it names; an index of 0 may be left out', () => {
    expect(
      verdicts(
        failure([
          at(undefined, 'CLICK_NOT_FOUND'),
          at(2, 'ORDER_ID_ALREADY_IN_USE'),
          at(3, 'TOO_RECENT_EVENT'),
        ]),
        4,
      ),
    ).toEqual([
      { outcome: 'refused', reason: 'CLICK_NOT_FOUND: click_not_found' },
      { outcome: 'accepted' },
      { outcome: 'already' },
      { outcome: 'retry', reason: 'TOO_RECENT_EVENT: too_recent_event' },
    ]);
    expect(verdicts({ results: [{}, {}] }, 2)).toEqual([{ outcome: 'accepted' }, { outcome: 'accepted' }]);
  });
});
