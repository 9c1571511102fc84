/**
 * Who is told about a call and where its voicemail goes: the settings a campaign and a source both
 * carry. A source's are the ones a call's notifications follow (docs/notifications.md, What is sent).
 */
export interface NotificationFlags {
  notifyOnMissedCall: boolean;
  notifyOnNewVoicemail: boolean;
  vmDivertAll: boolean;
  vmDivertBusy: boolean;
  vmDivertNoanswer: boolean;
}

export interface NotificationSettings extends NotificationFlags {
  email: string | null;
  /** E.164. */
  smsnumber: string | null;
  vmGreetingId: string | null;
}

/** Each flag's name on the wire. */
export const NOTIFICATION_FLAG_FIELDS: Record<keyof NotificationFlags, string> = {
  notifyOnMissedCall: 'notify_on_missed_call',
  notifyOnNewVoicemail: 'notify_on_new_voicemail',
  vmDivertAll: 'vm_divert_all',
  vmDivertBusy: 'vm_divert_busy',
  vmDivertNoanswer: 'vm_divert_noanswer',
};
