import { normalizePhoneNumber, readStirVerstat, ValidationError } from '@trackline/domain';

/** The form fields of a signed provider webhook (http/provider-signature.ts), by name. */
type WebhookForm = ReadonlyMap<string, string>;

const CALL_SID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const CALL_SID_RULE = 'must be 1 to 128 printable characters without spaces';
const STATUS_PATTERN = /^[a-z-]{1,20}$/;
const NUMBER_PATTERN = /^\+?[0-9]{3,20}$/;
const SECONDS_PATTERN = /^\d{1,9}$/;

/**
 * The parameters of one provider webhook (docs/telephony.md), each read by its one rule, as the
 * typed value the callback needs. A parameter is read when the callback needs it, so one a callback
 * ignores (a progress event's `To`) cannot refuse it.
 */
export class TwilioParams {
  constructor(private readonly form: WebhookForm) {}

  callSid(): string {
    return this.required('CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
  }

  /** For the log only: unchecked, maybe absent. */
  loggedCallSid(): string | undefined {
    return this.form.get('CallSid');
  }

  callStatus(): string {
    return this.required('CallStatus', STATUS_PATTERN, 'must be a call status');
  }

  recordingStatus(): string {
    return this.required('RecordingStatus', STATUS_PATTERN, 'must be a recording status');
  }

  /** The tracking number called, read by the one rule of every edge (docs/switch.md, "Numbers"). */
  to(): string {
    return normalizePhoneNumber('To', this.dialled(), null);
  }

  /** The number called as sent, for the greeting dial-in, which compares digits only. */
  dialled(): string {
    return this.required('To', NUMBER_PATTERN, 'must be a phone number');
  }

  /** The caller as the provider names it, as much as the call's row keeps; "" when withheld. */
  from(): string {
    return (this.form.get('From') ?? '').slice(0, 64);
  }

  callDuration(): number | null {
    return this.seconds('CallDuration');
  }

  recordingDuration(): number | null {
    return this.seconds('RecordingDuration');
  }

  /** 1 or 2 (a dual recording: caller and answerer apart); 1 when absent, as the provider's default. */
  recordingChannels(): number {
    const value = this.form.get('RecordingChannels');
    if (value === undefined || value === '') return 1;
    if (value !== '1' && value !== '2') throw new ValidationError('RecordingChannels', 'must be 1 or 2');
    return Number(value);
  }

  /** "" when absent (a recording that failed has none). */
  recordingSid(): string {
    return this.form.get('RecordingSid') ?? '';
  }

  /** "" when absent; a completed recording's URL is checked against the allowed hosts by the fetcher. */
  recordingUrl(): string {
    return this.form.get('RecordingUrl') ?? '';
  }

  /**
   * The STIR/SHAKEN verification (`StirVerstat`, docs/spam.md): sent by Twilio on a US call's voice
   * webhook, covered by the signature like every POST field; null when absent or unknown.
   */
  stirVerstat(): string | null {
    return readStirVerstat(this.form.get('StirVerstat'));
  }

  /** The keys the caller pressed; "" when none. */
  digits(): string {
    return this.form.get('Digits') ?? '';
  }

  private required(name: string, pattern: RegExp, rule: string): string {
    const value = this.form.get(name);
    if (value === undefined || value === '') throw new ValidationError(name, 'is required');
    if (!pattern.test(value)) throw new ValidationError(name, rule);
    return value;
  }

  private seconds(name: string): number | null {
    const value = this.form.get(name);
    if (value === undefined || value === '') return null;
    if (!SECONDS_PATTERN.test(value)) throw new ValidationError(name, 'must be whole seconds');
    return Number(value);
  }
}

/** The tracking number the recording callback's URL names (`?to=`, set when the call was answered). */
export function callbackTrackingNumber(value: string | undefined): string {
  if (value === undefined || !NUMBER_PATTERN.test(value))
    throw new ValidationError('to', 'the callback URL must name the tracking number (?to=+E.164)');
  return normalizePhoneNumber('to', value, null);
}
