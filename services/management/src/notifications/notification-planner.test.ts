import { planNotifications, type NotifiableCdr, type NotifiableSource } from './notification-planner';

const start = new Date('2026-03-01T10:15:00Z');
const cdr = (over: Partial<NotifiableCdr>): NotifiableCdr => ({
  id: '42',
  anum: '+4790000001',
  bnum: '+4721000000',
  start,
  durationSeconds: 0,
  answered: false,
  voicemail: false,
  hasRecording: false,
  ...over,
});
const source = (over: Partial<NotifiableSource>): NotifiableSource => ({
  id: '7',
  name: 'Shop',
  email: 'shop@example.com',
  smsnumber: '+4790000099',
  notifyOnMissedCall: true,
  notifyOnNewVoicemail: true,
  ...over,
});

describe('planNotifications', () => {
  it('notifies a missed call by e-mail and SMS', () => {
    const planned = planNotifications({ cdr: cdr({}), source: source({}) });
    expect(planned.map((n) => [n.channel, n.kind, n.recipient])).toEqual([
      ['email', 'missed_call', 'shop@example.com'],
      ['sms', 'missed_call', '+4790000099'],
    ]);
    expect(planned[0]?.subject).toBe('Missed call from +4790000001');
    expect(planned[1]?.text).toBe(
      'Missed call from +4790000001 to +4721000000 (Shop) at 2026-03-01 10:15:00 UTC.',
    );
    expect(planned.every((n) => n.cdrId === '42' && n.attachment === undefined)).toBe(true);
  });

  it('uses only the addresses the source has', () => {
    expect(
      planNotifications({ cdr: cdr({}), source: source({ email: null }) }).map((n) => n.channel),
    ).toEqual(['sms']);
    expect(
      planNotifications({ cdr: cdr({}), source: source({ smsnumber: null }) }).map((n) => n.channel),
    ).toEqual(['email']);
    expect(planNotifications({ cdr: cdr({}), source: source({ email: null, smsnumber: null }) })).toEqual([]);
  });

  it('sends nothing for a missed call when the flag is off, or for an answered call', () => {
    expect(planNotifications({ cdr: cdr({}), source: source({ notifyOnMissedCall: false }) })).toEqual([]);
    expect(
      planNotifications({ cdr: cdr({ answered: true, durationSeconds: 30 }), source: source({}) }),
    ).toEqual([]);
  });

  it('e-mails a new voicemail with the recording referenced by the CDR id, and no missed-call notice', () => {
    const planned = planNotifications({
      cdr: cdr({
        voicemail: true,
        hasRecording: true,
        durationSeconds: 12,
        recordingContentType: 'audio/mpeg',
      }),
      source: source({}),
    });
    expect(planned).toEqual([
      {
        channel: 'email',
        kind: 'new_voicemail',
        recipient: 'shop@example.com',
        subject: 'New voicemail from +4790000001',
        text: 'New voicemail from +4790000001 to +4721000000 (Shop) at 2026-03-01 10:15:00 UTC, 12 seconds. The recording is attached.',
        cdrId: '42',
        attachment: { filename: 'voicemail-42.mp3', contentType: 'audio/mpeg', sourceCdrId: '42' },
      },
    ]);
  });

  it('defaults the recording to audio/wav', () => {
    const [mail] = planNotifications({
      cdr: cdr({ voicemail: true, hasRecording: true }),
      source: source({}),
    });
    expect(mail?.attachment).toEqual({
      filename: 'voicemail-42.wav',
      contentType: 'audio/wav',
      sourceCdrId: '42',
    });
  });

  it('sends no voicemail e-mail when the flag is off or there is no e-mail address', () => {
    const vm = cdr({ voicemail: true, hasRecording: true });
    expect(planNotifications({ cdr: vm, source: source({ notifyOnNewVoicemail: false }) })).toEqual([]);
    expect(planNotifications({ cdr: vm, source: source({ email: null }) })).toEqual([]);
  });

  it('treats a voicemail without a recording as a missed call', () => {
    const planned = planNotifications({
      cdr: cdr({ voicemail: true, hasRecording: false }),
      source: source({}),
    });
    expect(planned.map((n) => n.kind)).toEqual(['missed_call', 'missed_call']);
  });
});
