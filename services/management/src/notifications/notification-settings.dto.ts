import { normalizePhoneNumber, parseFlag, type CountryCode } from '@trackline/domain';
import { clearable, Email, Flag, Text } from '../validation/field-rules';
import {
  NOTIFICATION_FLAG_FIELDS,
  type NotificationFlags,
  type NotificationSettings,
} from './notification-settings';

export interface NotificationSettingsLimits {
  email: number;
  /** Raw phone input; what is stored is its E.164 form. */
  smsnumber: number;
  greetingId: number;
}

/**
 * The fields of the notification settings, for a campaign's or a source's DTO to extend. Every one
 * is optional and the text ones clearable, on create and update alike. Their rules are checked after
 * the extending DTO's own fields.
 */
export function notificationSettingsDto(limits: NotificationSettingsLimits) {
  class NotificationSettingsDto {
    @Email(limits.email, 'clearable')
    email?: string | null;

    @Text(limits.smsnumber, 'clearable')
    smsnumber?: string | null;

    @Text(limits.greetingId, 'clearable')
    vm_greeting_id?: string | null;

    @Flag('optional')
    notify_on_missed_call?: string;

    @Flag('optional')
    notify_on_new_voicemail?: string;

    @Flag('optional')
    vm_divert_all?: string;

    @Flag('optional')
    vm_divert_busy?: string;

    @Flag('optional')
    vm_divert_noanswer?: string;
  }
  return NotificationSettingsDto;
}

type NotificationSettingsInput = InstanceType<ReturnType<typeof notificationSettingsDto>>;

/** The settings a request names, parsed: '' clears a text, `smsnumber` becomes E.164. */
export function toNotificationSettingsChanges(
  dto: NotificationSettingsInput,
  country: CountryCode,
): Partial<NotificationSettings> {
  const changes: Partial<NotificationSettings> = {};
  if (dto.email !== undefined) changes.email = clearable(dto.email);
  if (dto.smsnumber !== undefined) {
    const smsnumber = clearable(dto.smsnumber);
    changes.smsnumber = smsnumber === null ? null : normalizePhoneNumber('smsnumber', smsnumber, country);
  }
  if (dto.vm_greeting_id !== undefined) changes.vmGreetingId = clearable(dto.vm_greeting_id);
  for (const [key, field] of Object.entries(NOTIFICATION_FLAG_FIELDS) as Array<
    [keyof NotificationFlags, keyof NotificationSettingsInput]
  >) {
    const value = dto[field];
    if (value !== undefined) changes[key] = parseFlag(field, value);
  }
  return changes;
}

/** What a new campaign or source has where the request left a setting out: nothing set, all off. */
export function withNotificationDefaults(changes: Partial<NotificationSettings>): NotificationSettings {
  return {
    email: changes.email ?? null,
    smsnumber: changes.smsnumber ?? null,
    vmGreetingId: changes.vmGreetingId ?? null,
    notifyOnMissedCall: changes.notifyOnMissedCall ?? false,
    notifyOnNewVoicemail: changes.notifyOnNewVoicemail ?? false,
    vmDivertAll: changes.vmDivertAll ?? false,
    vmDivertBusy: changes.vmDivertBusy ?? false,
    vmDivertNoanswer: changes.vmDivertNoanswer ?? false,
  };
}
