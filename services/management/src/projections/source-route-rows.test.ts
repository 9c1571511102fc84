import { NO_SOURCE_CALL_SETTINGS } from '../partners/call-intelligence-settings';
import { projectSourceRoutes, type CampaignVoicemail, type SourceRouteRow } from './source-route-rows';

const NOW = new Date('2026-04-01T12:00:00Z');
const LATER = new Date('2026-04-20T00:00:00Z');
const EARLIER = new Date('2026-03-20T00:00:00Z');

function row(overrides: Partial<SourceRouteRow>): SourceRouteRow {
  return {
    id: '1',
    customerId: '7',
    destnr: '+4790000001',
    phonenr: '+4722334455',
    status: 'active',
    closedAt: null,
    heldUntil: null,
    altNumbers: [],
    vmDivertAll: false,
    vmDivertBusy: false,
    vmDivertNoanswer: false,
    vmGreetingId: null,
    spamPolicy: null,
    callSettings: NO_SOURCE_CALL_SETTINGS,
    campaign: null,
    ...overrides,
  };
}

describe('projectSourceRoutes', () => {
  it("carries a source's own spam policy, and none when the partner's applies", () => {
    const [own, partners] = projectSourceRoutes(
      [
        row({ id: '1', spamPolicy: { policy: 'reject', threshold: null } }),
        row({ id: '2', destnr: '+4790000002' }),
      ],
      NOW,
    );
    expect(own!.spamPolicy).toEqual({ policy: 'reject', threshold: null });
    expect(partners).not.toHaveProperty('spamPolicy');
  });

  it("carries a source's recording and announcement, not its transcription, and nothing when all are the partner's", () => {
    const [own, partners, transcribed] = projectSourceRoutes(
      [
        row({ id: '1', callSettings: { recordCalls: true, consentAnnouncement: '', transcription: null } }),
        row({ id: '2', destnr: '+4790000002' }),
        row({
          id: '3',
          destnr: '+4790000003',
          callSettings: { recordCalls: null, consentAnnouncement: null, transcription: true },
        }),
      ],
      NOW,
    );
    expect(own!.callRecording).toEqual({ recordCalls: true, consentAnnouncement: '' });
    expect(partners).not.toHaveProperty('callRecording');
    expect(transcribed).not.toHaveProperty('callRecording');
  });

  it('maps stored alt rules onto the route codec shape', () => {
    const [route] = projectSourceRoutes(
      [
        row({
          vmGreetingId: '4',
          altNumbers: [
            {
              phonenr: 'voicemail',
              weekdays: ['sat', 'sun'],
              from_minute: 0,
              to_minute: 1440,
              alt_key: 'k1',
            },
          ],
        }),
      ],
      NOW,
    );
    expect(route).toEqual({
      sourceId: '1',
      customerId: '7',
      destnr: '+4790000001',
      phonenr: '+4722334455',
      altNumbers: [
        { phonenr: 'voicemail', weekdays: ['sat', 'sun'], fromMinute: 0, toMinute: 1440, altKey: 'k1' },
      ],
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      vmGreetingId: '4',
      closed: false,
    });
  });

  it('routes a number to its open source before any closed one', () => {
    const routes = projectSourceRoutes(
      [
        row({ id: '2', status: 'closed', closedAt: EARLIER, heldUntil: LATER }),
        row({ id: '3', phonenr: '+4722000003' }),
      ],
      NOW,
    );
    expect(routes.map((route) => [route.sourceId, route.closed])).toEqual([['3', false]]);
  });

  it('keeps a closed source while its number is held back, the last closed first, and drops it after', () => {
    const closedFirst = row({ id: '9', status: 'closed', closedAt: EARLIER, heldUntil: LATER });
    const closedLast = row({
      id: '5',
      status: 'closed',
      closedAt: new Date('2026-03-25T00:00:00Z'),
      heldUntil: LATER,
    });
    expect(
      projectSourceRoutes([closedFirst, closedLast], NOW).map((route) => [route.sourceId, route.closed]),
    ).toEqual([['5', true]]);
    expect(projectSourceRoutes([closedFirst, closedLast], LATER)).toEqual([]);
    expect(projectSourceRoutes([row({ status: 'closed', closedAt: EARLIER, heldUntil: null })], NOW)).toEqual(
      [],
    );
  });

  it("applies an attached campaign's voicemail settings: divert when either says so, the source's greeting first", () => {
    const campaign = (overrides: Partial<CampaignVoicemail>): CampaignVoicemail => ({
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      vmGreetingId: null,
      ...overrides,
    });
    const [fromCampaign, ownGreeting, neither] = projectSourceRoutes(
      [
        row({ id: '1', destnr: '+4790000001', campaign: campaign({ vmDivertAll: true, vmGreetingId: '8' }) }),
        row({
          id: '2',
          destnr: '+4790000002',
          vmGreetingId: '3',
          campaign: campaign({ vmGreetingId: '8' }),
        }),
        row({ id: '3', destnr: '+4790000003', campaign: campaign({}) }),
      ],
      NOW,
    );
    expect(fromCampaign).toMatchObject({ vmDivertAll: true, vmGreetingId: '8' });
    expect(ownGreeting).toMatchObject({ vmDivertAll: false, vmGreetingId: '3' });
    expect(neither).toMatchObject({ vmDivertAll: false, vmGreetingId: null });
  });

  it("diverts on busy and on no answer by the source's flag, else its campaign's", () => {
    const off = { vmDivertAll: false, vmDivertBusy: false, vmDivertNoanswer: false, vmGreetingId: null };
    const [ownFlags, campaignFlags, mixed, noCampaign] = projectSourceRoutes(
      [
        row({ id: '1', destnr: '+4790000001', vmDivertBusy: true, vmDivertNoanswer: true, campaign: off }),
        row({
          id: '2',
          destnr: '+4790000002',
          campaign: { ...off, vmDivertBusy: true, vmDivertNoanswer: true, vmGreetingId: '8' },
        }),
        row({
          id: '3',
          destnr: '+4790000003',
          vmDivertNoanswer: true,
          campaign: { ...off, vmDivertBusy: true },
        }),
        row({ id: '4', destnr: '+4790000004', vmDivertBusy: true }),
      ],
      NOW,
    );
    expect(ownFlags).toMatchObject({ vmDivertAll: false, vmDivertBusy: true, vmDivertNoanswer: true });
    expect(campaignFlags).toMatchObject({ vmDivertBusy: true, vmDivertNoanswer: true, vmGreetingId: '8' });
    expect(mixed).toMatchObject({ vmDivertBusy: true, vmDivertNoanswer: true });
    expect(noCampaign).toMatchObject({ vmDivertBusy: true, vmDivertNoanswer: false });
  });

  it('orders routes by source id numerically', () => {
    const routes = projectSourceRoutes(
      [row({ id: '10', destnr: '+4790000010' }), row({ id: '9', destnr: '+4790000009' })],
      NOW,
    );
    expect(routes.map((route) => route.sourceId)).toEqual(['9', '10']);
  });
});
