import { parseOutboxPayload } from './outbox-payload';

describe('parseOutboxPayload', () => {
  it('yields the payload with every part it carries', () => {
    const full = {
      subject: 'Missed call',
      text: 'A caller tried to reach you',
      attachment: { filename: 'voicemail.wav', contentType: 'audio/wav' },
      report: { partnerId: '3', customerId: '12', month: '2026-02' },
    };
    expect(parseOutboxPayload(full)).toEqual(full);
    expect(parseOutboxPayload({ text: 'only text' })).toEqual({ text: 'only text' });
  });

  it('drops what no notification carries', () => {
    expect(parseOutboxPayload({ text: 't', extra: 1 })).toEqual({ text: 't' });
  });

  it.each([
    [null, 'payload: must be an object'],
    [[], 'payload: must be an object'],
    ['text', 'payload: must be an object'],
    [{}, 'payload.text: must be a string'],
    [{ text: 5 }, 'payload.text: must be a string'],
    [{ text: 't', subject: null }, 'payload.subject: must be a string'],
    [{ text: 't', attachment: 'a.wav' }, 'payload.attachment: must be an object'],
    [{ text: 't', attachment: { filename: 'a.wav' } }, 'payload.attachment.contentType: must be a string'],
    [
      { text: 't', report: { partnerId: '3', customerId: 12, month: '2026-02' } },
      'payload.report.customerId: must be a string',
    ],
  ])('refuses %j: %s', (raw, message) => {
    expect(() => parseOutboxPayload(raw)).toThrow(message);
  });
});
