import { DEFAULT_CONSENT_ANNOUNCEMENT } from '@trackline/contracts';
import { readTwiml } from '@trackline/test-harness';
import { testConfig } from '../../test-support/fixtures';
import type { RouteDecision } from '../call-routing.service';
import { decisionTwiml, type CallHandling } from './twilio-twiml';

const config = testConfig('twiml-unit:').twilio;
const BNUM = '+4790000101';
const NOW = Date.parse('2026-05-01T10:00:00Z');
const dial: RouteDecision = {
  action: 'dial',
  target: '+4722334401',
  partner: 'acme',
  source_id: '201',
  on_busy: null,
  on_no_answer: null,
};

function handling(record: boolean, consentAnnouncement = DEFAULT_CONSENT_ANNOUNCEMENT): CallHandling {
  return { ringTimeoutSeconds: 20, screenCalls: false, recording: { record, consentAnnouncement } };
}

describe('decisionTwiml and recording (docs/telephony.md, Recording answered calls)', () => {
  it('leaves the dial unrecorded and unannounced when recording is off', () => {
    const [only, ...rest] = readTwiml(decisionTwiml(dial, BNUM, config, handling(false), NOW));
    expect(rest).toEqual([]);
    expect(only!.name).toBe('Dial');
    for (const name of [
      'record',
      'recordingStatusCallback',
      'recordingStatusCallbackMethod',
      'recordingStatusCallbackEvent',
    ])
      expect(only!.attributes).not.toHaveProperty(name);
  });

  it('says the announcement, then dials recording both parties from the answer on', () => {
    const [say, dialled, ...rest] = readTwiml(decisionTwiml(dial, BNUM, config, handling(true), NOW));
    expect(rest).toEqual([]);
    expect(say).toMatchObject({ name: 'Say', text: DEFAULT_CONSENT_ANNOUNCEMENT });
    expect(dialled!.attributes).toMatchObject({
      record: 'record-from-answer-dual',
      recordingStatusCallback: `${config.managementPublicUrl}/telephony/twilio/recording?to=%2B4790000101&kind=conversation`,
      recordingStatusCallbackMethod: 'POST',
      recordingStatusCallbackEvent: 'completed',
      answerOnBridge: 'true',
    });
  });

  it('says nothing first when the announcement is empty, and records all the same', () => {
    const [dialled, ...rest] = readTwiml(decisionTwiml(dial, BNUM, config, handling(true, ''), NOW));
    expect(rest).toEqual([]);
    expect(dialled!.name).toBe('Dial');
    expect(dialled!.attributes.record).toBe('record-from-answer-dual');
  });

  it('announces nothing for a call that goes to voicemail or is rejected', () => {
    const voicemail = readTwiml(
      decisionTwiml({ action: 'voicemail', partner: 'acme' }, BNUM, config, handling(true), NOW),
    );
    expect(voicemail.map((node) => node.name)).toEqual(['Say', 'Record']);
    expect(voicemail[0]!.text).not.toBe(DEFAULT_CONSENT_ANNOUNCEMENT);
    expect(voicemail[1]!.attributes.recordingStatusCallback).not.toContain('kind=');
    const rejected = readTwiml(
      decisionTwiml({ action: 'reject', partner: 'acme' }, BNUM, config, handling(true), NOW),
    );
    expect(rejected.map((node) => node.name)).toEqual(['Reject']);
  });
});
