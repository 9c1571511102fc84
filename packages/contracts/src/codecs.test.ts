import { decodeBinding, encodeBindingContext } from './binding.codec';
import { decodeCallAttribution, encodeCallAttribution, type CallAttribution } from './call-attribution.codec';
import { callRecordingFor, DEFAULT_CONSENT_ANNOUNCEMENT } from './call-recording';
import {
  CUSTOMER_SEEN_RESEND_MS,
  customerMarker,
  decodeCustomerSeenEvent,
  encodeCustomerSeenEvent,
} from './customer-seen-event.codec';
import { decodeNumberIndexEntry, encodeNumberIndexEntry } from './number-index.codec';
import { decodePartnerConfig, encodePartnerConfig, type PartnerConfig } from './partner-config.codec';
import { ProjectionDecodeError } from './projection-error';
import { PROJECTION_VERSION } from './projection-version';
import { decodeSourceRoute, encodeSourceRoute, type SourceRoute } from './source-route.codec';

const config: PartnerConfig = {
  advId: 'acme',
  signingSecret: 's3cret',
  country: 'NO',
  timeZone: 'Europe/Oslo',
  sessionTtlSeconds: 1800,
  holdBackSeconds: 600,
  onExhausted: 'recycle',
  fallbackNumber: '+4722334455',
};

const route: SourceRoute = {
  sourceId: '12',
  customerId: '3',
  destnr: '+4791000001',
  phonenr: '+4722334455',
  altNumbers: [
    { phonenr: 'voicemail', weekdays: ['sat', 'sun'], fromMinute: 0, toMinute: 1440, altKey: 'a1' },
  ],
  vmDivertAll: false,
  vmDivertBusy: true,
  vmDivertNoanswer: false,
  vmGreetingId: '7',
  closed: false,
};

describe('partner config codec', () => {
  it('round-trips and carries the projection version', () => {
    const hash = encodePartnerConfig(config);
    expect(hash.version).toBe(String(PROJECTION_VERSION));
    expect(decodePartnerConfig(hash)).toEqual(config);
    expect(
      decodePartnerConfig(encodePartnerConfig({ ...config, fallbackNumber: null }))?.fallbackNumber,
    ).toBeNull();
  });

  it('reads a version-1 hash, whose layout version 2 kept', () => {
    // As management wrote it under PROJECTION_VERSION 1.
    const v1 = {
      version: '1', adv_id: 'acme', signing_secret: 's3cret', country: 'NO', time_zone: 'Europe/Oslo',
      session_ttl: '1800', hold_back: '600', on_exhausted: 'recycle', fallback_number: '+4722334455',
    }; // prettier-ignore
    expect(decodePartnerConfig(v1)).toEqual(config);
  });

  it('carries the call settings only when set, and checks the ring timeout', () => {
    const hash = encodePartnerConfig({ ...config, ringTimeoutSeconds: 35, screenCalls: true });
    expect(hash).toMatchObject({ ring_timeout: '35', screen_calls: '1' });
    expect(decodePartnerConfig(hash)).toEqual({ ...config, ringTimeoutSeconds: 35, screenCalls: true });
    const plain = encodePartnerConfig({ ...config, ringTimeoutSeconds: null, screenCalls: false });
    expect(plain).not.toHaveProperty('ring_timeout');
    expect(plain).not.toHaveProperty('screen_calls');
    expect(() => encodePartnerConfig({ ...config, ringTimeoutSeconds: 4 })).toThrow(/ring_timeout/);
    expect(() => decodePartnerConfig({ ...hash, ring_timeout: 'x' })).toThrow(/ring_timeout/);
  });

  it('carries the spam policy and threshold only when not the defaults, and checks them', () => {
    const hash = encodePartnerConfig({ ...config, spamPolicy: 'challenge', spamThreshold: 55 });
    expect(hash).toMatchObject({ spam_policy: 'challenge', spam_threshold: '55' });
    expect(decodePartnerConfig(hash)).toEqual({ ...config, spamPolicy: 'challenge', spamThreshold: 55 });
    const plain = encodePartnerConfig({ ...config, spamPolicy: 'allow', spamThreshold: 70 });
    expect(plain).not.toHaveProperty('spam_policy');
    expect(plain).not.toHaveProperty('spam_threshold');
    expect(() => encodePartnerConfig({ ...config, spamThreshold: 101 })).toThrow(/spam_threshold/);
    expect(() => decodePartnerConfig({ ...hash, spam_policy: 'drop' })).toThrow(/spam_policy/);
  });

  it('carries recording when on and the announcement as set; a hash without them records nothing', () => {
    const hash = encodePartnerConfig({ ...config, recordCalls: true, consentAnnouncement: '' });
    expect(hash).toMatchObject({ record_calls: '1', consent_announcement: '' });
    expect(decodePartnerConfig(hash)).toEqual({ ...config, recordCalls: true, consentAnnouncement: '' });
    const off = encodePartnerConfig({ ...config, recordCalls: false, consentAnnouncement: 'Recorded.' });
    expect(off).not.toHaveProperty('record_calls');
    expect(decodePartnerConfig(off)).toEqual({ ...config, consentAnnouncement: 'Recorded.' });
    const plain = encodePartnerConfig({ ...config, consentAnnouncement: DEFAULT_CONSENT_ANNOUNCEMENT });
    expect(plain).not.toHaveProperty('consent_announcement');
    const older = decodePartnerConfig(encodePartnerConfig(config))!;
    expect(callRecordingFor(older, null)).toEqual({
      record: false,
      consentAnnouncement: DEFAULT_CONSENT_ANNOUNCEMENT,
    });
    expect(() => encodePartnerConfig({ ...config, consentAnnouncement: 'x'.repeat(501) })).toThrow(
      /consent_announcement/,
    );
  });

  it('reads an empty hash as no partner', () => {
    expect(decodePartnerConfig({})).toBeNull();
  });

  it('refuses another projection version and bad values', () => {
    const hash = encodePartnerConfig(config);
    expect(() => decodePartnerConfig({ ...hash, version: '999' })).toThrow(ProjectionDecodeError);
    expect(() => decodePartnerConfig({ ...hash, version: String(PROJECTION_VERSION + 1) })).toThrow(
      /projection version/,
    );
    expect(() => decodePartnerConfig({ ...hash, version: '0' })).toThrow(/projection version/);
    expect(() => decodePartnerConfig({ ...hash, version: '2.0' })).toThrow(/projection version/);
    const { version: _version, ...unversioned } = hash;
    expect(() => decodePartnerConfig(unversioned)).toThrow(/projection version/);
    expect(() => decodePartnerConfig({ ...hash, country: 'XX' })).toThrow(/country/);
    expect(() => decodePartnerConfig({ ...hash, time_zone: 'Mars/Base' })).toThrow(/time zone/);
    expect(() => decodePartnerConfig({ ...hash, session_ttl: '0' })).toThrow(/session_ttl/);
    expect(() => decodePartnerConfig({ ...hash, hold_back: '-1' })).toThrow(/hold_back/);
    expect(() => decodePartnerConfig({ ...hash, on_exhausted: 'drop' })).toThrow(/on_exhausted/);
    expect(() => decodePartnerConfig({ ...hash, fallback_number: '22334455' })).toThrow(/fallback_number/);
    const { signing_secret: _omitted, ...withoutSecret } = hash;
    expect(() => decodePartnerConfig(withoutSecret)).toThrow(/signing_secret/);
  });
});

describe('source route codec', () => {
  it('round-trips the diversion flags, read back as fresh', () => {
    expect(PROJECTION_VERSION).toBe(2);
    const encoded = JSON.parse(encodeSourceRoute(route)) as Record<string, unknown>;
    expect(encoded).toMatchObject({
      version: 2,
      vm_divert_all: false,
      vm_divert_busy: true,
      vm_divert_noanswer: false,
    });
    expect(decodeSourceRoute(encodeSourceRoute(route))).toEqual({ ...route, stale: false });
    const noanswer = { ...route, vmDivertBusy: false, vmDivertNoanswer: true, vmGreetingId: null };
    expect(decodeSourceRoute(encodeSourceRoute(noanswer))).toEqual({ ...noanswer, stale: false });
  });

  it('reads a version-1 route as stale, without busy or no-answer diversion', () => {
    // As management wrote it under PROJECTION_VERSION 1: no vm_divert_busy / vm_divert_noanswer.
    const v1 = JSON.stringify({
      version: 1, source_id: '12', customer_id: '3', destnr: '+4791000001', phonenr: '+4722334455',
      alt_numbers: [{ phonenr: 'voicemail', weekdays: ['sat', 'sun'], from_minute: 0, to_minute: 1440, alt_key: 'a1' }],
      vm_divert_all: true, vm_greeting_id: '7', closed: false,
    }); // prettier-ignore
    expect(decodeSourceRoute(v1)).toEqual({
      ...route,
      vmDivertAll: true,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      stale: true,
    });
  });

  it('refuses versions it does not know, and a current route without the flags', () => {
    const json = JSON.parse(encodeSourceRoute(route)) as Record<string, unknown>;
    for (const version of [0, 3, '2', 1.5, null]) {
      expect(() => decodeSourceRoute(JSON.stringify({ ...json, version }))).toThrow(/projection version/);
    }
    const { version: _version, ...unversioned } = json;
    expect(() => decodeSourceRoute(JSON.stringify(unversioned))).toThrow(/projection version/);
    const { vm_divert_busy: _busy, ...withoutBusy } = json;
    expect(() => decodeSourceRoute(JSON.stringify(withoutBusy))).toThrow(/vm_divert_busy/);
    expect(() => decodeSourceRoute(JSON.stringify({ ...json, vm_divert_noanswer: 1 }))).toThrow(
      /vm_divert_noanswer/,
    );
  });

  it("carries a source's spam policy, and leaves it out when the partner's applies", () => {
    expect(JSON.parse(encodeSourceRoute(route))).not.toHaveProperty('spam_policy');
    expect(decodeSourceRoute(encodeSourceRoute(route))).not.toHaveProperty('spamPolicy');
    const overridden: SourceRoute = { ...route, spamPolicy: { policy: 'reject', threshold: 40 } };
    expect(JSON.parse(encodeSourceRoute(overridden))).toMatchObject({
      spam_policy: 'reject',
      spam_threshold: 40,
    });
    expect(decodeSourceRoute(encodeSourceRoute(overridden))).toEqual({ ...overridden, stale: false });
    const ownThreshold: SourceRoute = { ...route, spamPolicy: { policy: 'voicemail', threshold: null } };
    expect(decodeSourceRoute(encodeSourceRoute(ownThreshold))).toEqual({ ...ownThreshold, stale: false });
    expect(() => encodeSourceRoute({ ...route, spamPolicy: { policy: 'reject', threshold: 101 } })).toThrow(
      /spam_threshold/,
    );
    const json = JSON.parse(encodeSourceRoute(overridden)) as Record<string, unknown>;
    expect(() => decodeSourceRoute(JSON.stringify({ ...json, spam_policy: 'hangup' }))).toThrow(
      /spam_policy/,
    );
    expect(() => decodeSourceRoute(JSON.stringify({ ...json, spam_threshold: '40' }))).toThrow(
      /spam_threshold/,
    );
  });

  it("carries a source's recording settings, each null left to the partner", () => {
    expect(JSON.parse(encodeSourceRoute(route))).not.toHaveProperty('record_calls');
    expect(decodeSourceRoute(encodeSourceRoute(route))).not.toHaveProperty('callRecording');
    const off: SourceRoute = { ...route, callRecording: { recordCalls: false, consentAnnouncement: null } };
    expect(JSON.parse(encodeSourceRoute(off))).not.toHaveProperty('consent_announcement');
    expect(decodeSourceRoute(encodeSourceRoute(off))).toEqual({ ...off, stale: false });
    const worded: SourceRoute = {
      ...route,
      callRecording: { recordCalls: null, consentAnnouncement: 'Hei.' },
    };
    expect(decodeSourceRoute(encodeSourceRoute(worded))).toEqual({ ...worded, stale: false });
    expect(
      callRecordingFor({ recordCalls: true, consentAnnouncement: 'Partner.' }, off.callRecording),
    ).toEqual({
      record: false,
      consentAnnouncement: 'Partner.',
    });
    expect(callRecordingFor({ recordCalls: true }, worded.callRecording)).toEqual({
      record: true,
      consentAnnouncement: 'Hei.',
    });
    const json = JSON.parse(encodeSourceRoute(off)) as Record<string, unknown>;
    expect(() => decodeSourceRoute(JSON.stringify({ ...json, record_calls: '1' }))).toThrow(/record_calls/);
  });

  it('refuses bad rules on both sides', () => {
    expect(() => encodeSourceRoute({ ...route, phonenr: '22334455' })).toThrow(/phonenr/);
    const badWindow = { ...route.altNumbers[0]!, fromMinute: 600, toMinute: 600 };
    expect(() => encodeSourceRoute({ ...route, altNumbers: [badWindow] })).toThrow(/window/);
    const json = JSON.parse(encodeSourceRoute(route)) as Record<string, unknown>;
    expect(() => decodeSourceRoute(JSON.stringify({ ...json, version: 0 }))).toThrow(/version/);
    expect(() =>
      decodeSourceRoute(
        JSON.stringify({
          ...json,
          alt_numbers: [{ ...(json.alt_numbers as object[])[0], weekdays: ['mo'] }],
        }),
      ),
    ).toThrow(/weekdays/);
    expect(() => decodeSourceRoute('[]')).toThrow(ProjectionDecodeError);
  });
});

describe('number index codec', () => {
  it('round-trips names containing colons', () => {
    expect(decodeNumberIndexEntry(encodeNumberIndexEntry({ advId: 'a:b', kind: 'static' }))).toEqual({
      advId: 'a:b',
      kind: 'static',
    });
    expect(() => decodeNumberIndexEntry('acme')).toThrow(ProjectionDecodeError);
    expect(() => decodeNumberIndexEntry('dynamic:acme')).toThrow(ProjectionDecodeError);
  });
});

describe('binding codec', () => {
  it('decodes the layout the allocation script writes', () => {
    const context = encodeBindingContext({
      type: 'web',
      trackingId: 't-1',
      fullUrl: 'https://example.no/ad/1',
      fullReferrer: '',
      custnr: 'C1',
      parameters: { custnr: 'C1', adId: '1' },
    });
    const raw = `{"session_id":"s-1","number_on_page":"+4722334455","recycled":true,"bound_at":1700000000000,"context":${context}}`;
    expect(decodeBinding(raw)).toEqual({
      sessionId: 's-1',
      numberOnPage: '+4722334455',
      recycled: true,
      boundAt: 1700000000000,
      context: {
        type: 'web',
        trackingId: 't-1',
        fullUrl: 'https://example.no/ad/1',
        fullReferrer: '',
        custnr: 'C1',
        parameters: { custnr: 'C1', adId: '1' },
      },
    });
    expect(() => decodeBinding(raw.replace('"web"', '"tv"'))).toThrow(/type/);
  });
});

describe('call attribution codec', () => {
  it('round-trips', () => {
    const attribution: CallAttribution = {
      callId: 'c1', advId: 'acme', anum: '+4799999999', bnum: '+4791000001', at: '2026-01-05T10:00:00.000Z',
      action: 'dial', target: '+4722334455', sourceId: '12', customerId: '3', vmGreetingId: null,
      sessionId: 's', trackingId: 't', fullUrl: 'u', fullReferrer: '', custnr: null, parameters: { adId: '1' },
      quarantined: true, kind: 'after_session', boundAt: 1767607000000,
    }; // prettier-ignore
    expect(decodeCallAttribution(encodeCallAttribution(attribution))).toEqual(attribution);
    expect(() =>
      decodeCallAttribution(encodeCallAttribution({ ...attribution, action: 'ring' as 'dial' })),
    ).toThrow(/action/);
    expect(() =>
      decodeCallAttribution(encodeCallAttribution({ ...attribution, kind: 'maybe' as 'none' })),
    ).toThrow(/attribution_kind/);
  });

  it('reads an attribution written before the confidence fields as unknown', () => {
    const {
      attribution_kind: _kind,
      bound_at: _boundAt,
      ...older
    } = JSON.parse(
      encodeCallAttribution({
        callId: 'c2', advId: 'acme', anum: '1', bnum: '+4791000001', at: '2026-01-05T10:00:00.000Z',
        action: 'reject', target: null, sourceId: null, customerId: null, vmGreetingId: null,
        sessionId: null, trackingId: null, fullUrl: null, fullReferrer: null, custnr: null, parameters: null,
        quarantined: false, kind: 'none', boundAt: null,
      }), // prettier-ignore
    ) as Record<string, unknown>;
    expect(decodeCallAttribution(JSON.stringify(older))).toMatchObject({ kind: null, boundAt: null });
  });

  it('keeps a known StirVerstat, leaves an unknown one and none out', () => {
    const base: CallAttribution = {
      callId: 'c3', advId: 'acme', anum: '+12025550123', bnum: '+4791000001', at: '2026-01-05T10:00:00.000Z',
      action: 'dial', target: '+4722334455', sourceId: null, customerId: null, vmGreetingId: null,
      sessionId: null, trackingId: null, fullUrl: null, fullReferrer: null, custnr: null, parameters: null,
      quarantined: false, kind: 'static', boundAt: null,
    }; // prettier-ignore
    const verified = { ...base, stirVerstat: 'TN-Validation-Passed-B-Diverted' };
    expect(JSON.parse(encodeCallAttribution(verified))).toMatchObject({
      stir_verstat: 'TN-Validation-Passed-B-Diverted',
    });
    expect(decodeCallAttribution(encodeCallAttribution(verified))).toEqual(verified);
    expect(JSON.parse(encodeCallAttribution(base))).not.toHaveProperty('stir_verstat');
    const unknown = JSON.stringify({
      ...JSON.parse(encodeCallAttribution(base)),
      stir_verstat: 'TN-Who-Knows',
    });
    expect(decodeCallAttribution(unknown)).toEqual(base);
    const wrongType = JSON.stringify({ ...JSON.parse(encodeCallAttribution(base)), stir_verstat: 7 });
    expect(() => decodeCallAttribution(wrongType)).toThrow(/stir_verstat/);
  });
});

describe('customer-seen event codec', () => {
  it('round-trips with and without the optional fields', () => {
    const full = {
      advId: 'acme',
      custnr: 'C1',
      custname: 'Kari',
      custemail: 'kari@example.no',
      at: 1700000000000,
    };
    expect(decodeCustomerSeenEvent(encodeCustomerSeenEvent(full))).toEqual(full);
    const bare = { advId: 'acme', custnr: 'C1', at: 1 };
    expect(decodeCustomerSeenEvent(encodeCustomerSeenEvent(bare))).toEqual(bare);
    expect(() => decodeCustomerSeenEvent(['version', '1', 'type', 'other'])).toThrow(/type/);
  });

  it('gives a new marker when the name or e-mail changes, and once per resend period', () => {
    const at = 5 * CUSTOMER_SEEN_RESEND_MS + 10;
    expect(customerMarker({ custname: 'Kari', at })).toBe(
      customerMarker({ custname: 'Kari', at: at + 1000 }),
    );
    expect(customerMarker({ custname: 'Kari', at })).not.toBe(customerMarker({ custname: 'Kari N', at }));
    expect(customerMarker({ at })).not.toBe(customerMarker({ custemail: '', at }));
    expect(customerMarker({ custname: 'Kari', at })).not.toBe(
      customerMarker({ custname: 'Kari', at: 6 * CUSTOMER_SEEN_RESEND_MS }),
    );
  });
});
