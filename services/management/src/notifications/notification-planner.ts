import { formatUtcTimestamp } from '@trackline/domain';
import type { NotificationToSend } from './outbox-writer';

/** The stored call record (cdrs/cdr.ts), as much of it as a notification needs. */
export interface NotifiableCdr {
  id: string;
  anum: string;
  bnum: string;
  start: Date;
  durationSeconds: number;
  answered: boolean;
  voicemail: boolean;
  /** Whether the CDR holds a voicemail recording (the e-mail attaches it). */
  hasRecording: boolean;
  /** MIME type of the stored recording; audio/wav when the switch did not say. */
  recordingContentType?: string;
  /** Judged spam (docs/spam.md): a robocall is no missed customer. */
  spam?: boolean;
}

/** The source the call came in on (its notification settings). */
export interface NotifiableSource {
  id: string;
  name: string;
  email: string | null;
  smsnumber: string | null;
  notifyOnMissedCall: boolean;
  notifyOnNewVoicemail: boolean;
}

const RECORDING_EXTENSIONS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/basic': 'au',
};

/**
 * docs/notifications.md, What is sent. A missed call is an unanswered one (seed: answered 0 = unanswered or
 * missed) that did not leave a voicemail with a recording — that caller did reach the customer, and the
 * voicemail notification tells them. A new voicemail is a voicemail call with a recording; without audio
 * there is nothing new to listen to, so it counts as missed.
 */
export function planNotifications(input: {
  cdr: NotifiableCdr;
  source: NotifiableSource;
}): NotificationToSend[] {
  const { cdr, source } = input;
  const isNewVoicemail = cdr.voicemail && cdr.hasRecording;
  const isMissed = !cdr.answered && !isNewVoicemail && cdr.spam !== true;
  const when = formatUtcTimestamp(cdr.start);
  const planned: NotificationToSend[] = [];

  if (isMissed && source.notifyOnMissedCall) {
    const text = `Missed call from ${cdr.anum} to ${cdr.bnum} (${source.name}) at ${when} UTC.`;
    if (source.email !== null) {
      planned.push({
        channel: 'email',
        kind: 'missed_call',
        recipient: source.email,
        subject: `Missed call from ${cdr.anum}`,
        text,
        cdrId: cdr.id,
      });
    }
    if (source.smsnumber !== null) {
      planned.push({ channel: 'sms', kind: 'missed_call', recipient: source.smsnumber, text, cdrId: cdr.id });
    }
  }

  if (isNewVoicemail && source.notifyOnNewVoicemail && source.email !== null) {
    const contentType = cdr.recordingContentType ?? 'audio/wav';
    const extension = RECORDING_EXTENSIONS[contentType] ?? 'bin';
    planned.push({
      channel: 'email',
      kind: 'new_voicemail',
      recipient: source.email,
      subject: `New voicemail from ${cdr.anum}`,
      text:
        `New voicemail from ${cdr.anum} to ${cdr.bnum} (${source.name}) at ${when} UTC, ` +
        `${cdr.durationSeconds} seconds. The recording is attached.`,
      cdrId: cdr.id,
      attachment: { filename: `voicemail-${cdr.id}.${extension}`, contentType, sourceCdrId: cdr.id },
    });
  }
  return planned;
}
