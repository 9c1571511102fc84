import { CONSENT_MAX_LENGTH, DEFAULT_CONSENT_ANNOUNCEMENT } from '@trackline/contracts';
import { parseFlag, renderFlag, ValidationError } from '@trackline/domain';
import { refuseUnknownFields } from '../validation/body-fields';

/**
 * A partner's call-intelligence settings (docs/call-intelligence.md, Settings), kept as one JSON
 * object on the partner (`partners.call_intelligence`, a key left out is its default) and, for the
 * three a source may override, on the source. Wire names are the stored keys.
 */
export const AUTO_OUTCOMES = ['off', 'lead', 'all'] as const;
export type AutoOutcome = (typeof AUTO_OUTCOMES)[number];

export interface CallIntelligenceSettings {
  /** Record answered calls, caller and answerer on two channels. */
  recordCalls: boolean;
  /** Said to the caller before a recorded call is put through; empty: no announcement. */
  consentAnnouncement: string;
  /** Send recordings to the speech engine (only when the operator set STT_BASE_URL). */
  transcription: boolean;
  /** Which classifications set the call's outcome when the partner posted none. */
  autoOutcome: AutoOutcome;
  redactCards: boolean;
  redactEmails: boolean;
  redactPhones: boolean;
}

/** What a source may set apart from its partner; null: the partner's setting applies. */
export interface SourceCallSettings {
  recordCalls: boolean | null;
  consentAnnouncement: string | null;
  transcription: boolean | null;
}

// Defined with the projections that carry the announcement to replacement's voice webhook.
export { CONSENT_MAX_LENGTH, DEFAULT_CONSENT_ANNOUNCEMENT };

export const DEFAULT_CALL_INTELLIGENCE: CallIntelligenceSettings = {
  recordCalls: false,
  consentAnnouncement: DEFAULT_CONSENT_ANNOUNCEMENT,
  transcription: false,
  autoOutcome: 'off',
  redactCards: true,
  redactEmails: true,
  redactPhones: true,
};

export const NO_SOURCE_CALL_SETTINGS: SourceCallSettings = {
  recordCalls: null,
  consentAnnouncement: null,
  transcription: null,
};

const FLAG_KEYS = {
  recordCalls: 'record_calls',
  transcription: 'transcription',
  redactCards: 'redact_cards',
  redactEmails: 'redact_emails',
  redactPhones: 'redact_phones',
} as const;

/** The settings in force: the source's where it set one, else the partner's. */
export function effectiveCallSettings(
  partner: CallIntelligenceSettings,
  source: SourceCallSettings | null,
): CallIntelligenceSettings {
  return {
    ...partner,
    recordCalls: source?.recordCalls ?? partner.recordCalls,
    consentAnnouncement: source?.consentAnnouncement ?? partner.consentAnnouncement,
    transcription: source?.transcription ?? partner.transcription,
  };
}

/** The stored object read back (keys as on the wire); anything unreadable is its default. */
export function callIntelligenceFromJson(
  stored: Record<string, unknown> | null | undefined,
): CallIntelligenceSettings {
  const json = stored ?? {};
  const settings = { ...DEFAULT_CALL_INTELLIGENCE };
  for (const [key, name] of Object.entries(FLAG_KEYS) as Array<[keyof typeof FLAG_KEYS, string]>)
    if (typeof json[name] === 'boolean') settings[key] = json[name];
  if (typeof json.consent_announcement === 'string') settings.consentAnnouncement = json.consent_announcement;
  if ((AUTO_OUTCOMES as readonly unknown[]).includes(json.auto_outcome))
    settings.autoOutcome = json.auto_outcome as AutoOutcome;
  return settings;
}

export function callIntelligenceToJson(settings: CallIntelligenceSettings): Record<string, string | boolean> {
  return {
    record_calls: settings.recordCalls,
    consent_announcement: settings.consentAnnouncement,
    transcription: settings.transcription,
    auto_outcome: settings.autoOutcome,
    redact_cards: settings.redactCards,
    redact_emails: settings.redactEmails,
    redact_phones: settings.redactPhones,
  };
}

export function sourceCallIntelligenceSettingsFromJson(
  stored: Record<string, unknown> | null | undefined,
): SourceCallSettings {
  const json = stored ?? {};
  return {
    recordCalls: typeof json.record_calls === 'boolean' ? json.record_calls : null,
    consentAnnouncement: typeof json.consent_announcement === 'string' ? json.consent_announcement : null,
    transcription: typeof json.transcription === 'boolean' ? json.transcription : null,
  };
}

/** Null when the source overrides nothing, so the column says "none" plainly. */
export function sourceCallIntelligenceSettingsToJson(
  settings: SourceCallSettings,
): Record<string, unknown> | null {
  const json: Record<string, unknown> = {};
  if (settings.recordCalls !== null) json.record_calls = settings.recordCalls;
  if (settings.consentAnnouncement !== null) json.consent_announcement = settings.consentAnnouncement;
  if (settings.transcription !== null) json.transcription = settings.transcription;
  return Object.keys(json).length === 0 ? null : json;
}

/** The settings as the API renders them: flags "0"/"1", everything a string. */
export function renderCallIntelligence(settings: CallIntelligenceSettings): Record<string, string> {
  return {
    record_calls: renderFlag(settings.recordCalls),
    consent_announcement: settings.consentAnnouncement,
    transcription: renderFlag(settings.transcription),
    auto_outcome: settings.autoOutcome,
    redact_cards: renderFlag(settings.redactCards),
    redact_emails: renderFlag(settings.redactEmails),
    redact_phones: renderFlag(settings.redactPhones),
  };
}

export function renderSourceCallSettings(settings: SourceCallSettings): Record<string, string | null> {
  return {
    record_calls: settings.recordCalls === null ? null : renderFlag(settings.recordCalls),
    consent_announcement: settings.consentAnnouncement,
    transcription: settings.transcription === null ? null : renderFlag(settings.transcription),
  };
}

const SETTINGS_FIELDS = [
  'record_calls',
  'consent_announcement',
  'transcription',
  'auto_outcome',
  'redact_cards',
  'redact_emails',
  'redact_phones',
] as const;

/**
 * A PUT of the partner's settings: the fields sent change, the rest stay; unknown fields and wrong
 * values are 400s naming the field. `otherFields`: the resource's fields read elsewhere, named in
 * the unknown field's message too.
 */
export function applyCallIntelligenceInput(
  current: CallIntelligenceSettings,
  input: Record<string, unknown>,
  otherFields: readonly string[] = [],
): CallIntelligenceSettings {
  refuseUnknownFields(input, [...SETTINGS_FIELDS, ...otherFields]);
  const next = { ...current };
  for (const [key, name] of Object.entries(FLAG_KEYS) as Array<[keyof typeof FLAG_KEYS, string]>)
    if (input[name] !== undefined) next[key] = readFlag(name, input[name]);
  if (input.consent_announcement !== undefined)
    next.consentAnnouncement = readAnnouncement(input.consent_announcement);
  if (input.auto_outcome !== undefined) {
    if (!(AUTO_OUTCOMES as readonly unknown[]).includes(input.auto_outcome))
      throw new ValidationError('auto_outcome', `must be one of ${AUTO_OUTCOMES.join(', ')}`);
    next.autoOutcome = input.auto_outcome as AutoOutcome;
  }
  return next;
}

const SOURCE_FIELDS = ['record_calls', 'consent_announcement', 'transcription'] as const;

/** A PUT of a source's settings: every field is sent; null (or "") leaves that one to the partner. */
export function parseSourceCallSettings(input: Record<string, unknown>): SourceCallSettings {
  refuseUnknownFields(input, SOURCE_FIELDS);
  const flag = (name: string): boolean | null =>
    input[name] === undefined || input[name] === null || input[name] === ''
      ? null
      : readFlag(name, input[name]);
  return {
    recordCalls: flag('record_calls'),
    consentAnnouncement:
      input.consent_announcement === undefined || input.consent_announcement === null
        ? null
        : readAnnouncement(input.consent_announcement),
    transcription: flag('transcription'),
  };
}

function readFlag(name: string, value: unknown): boolean {
  return parseFlag(name, value);
}

function readAnnouncement(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('consent_announcement', 'must be a string');
  const text = value.trim();
  if (text.length > CONSENT_MAX_LENGTH)
    throw new ValidationError('consent_announcement', `at most ${CONSENT_MAX_LENGTH} characters`);
  if (/\p{Cc}/u.test(text))
    throw new ValidationError('consent_announcement', 'must not contain control characters');
  return text;
}
