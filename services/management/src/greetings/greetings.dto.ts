import { ValidationError } from '@trackline/domain';
import { Parsed, Text } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import { isRecordPin } from './record-pin';

export const GREETING_NAME_LENGTH = 100;
/** Largest recording accepted, in bytes (a minute of 8 kHz 16-bit WAV is under 1 MiB). */
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;

export class CreateGreetingDto {
  @Text(GREETING_NAME_LENGTH, 'required')
  name?: string;
}

/** POST /customers/:customerId/voicemail_greetings. */
export function parseCreateGreeting(body: Record<string, unknown>): { name: string } {
  return { name: validateDto(CreateGreetingDto, body).name! };
}

export interface GreetingRecording {
  recordPin: string;
  sounddata: Buffer;
}

// A flat character class (no groups): linear on a recording of many megabytes.
const BASE64_CHARACTERS = /^[A-Za-z0-9+/]*={0,2}$/;

export class GreetingRecordingDto {
  @Parsed('required', (value) => {
    if (!isRecordPin(value)) throw new ValidationError('record_pin', 'must be six digits');
  })
  record_pin?: string;

  @Parsed('required', checkSounddata)
  sounddata?: string;
}

/** POST /telephony/greetings `{record_pin, sounddata}`: the PIN as six digits, the audio as base64. */
export function parseGreetingRecording(body: Record<string, unknown>): GreetingRecording {
  const dto = validateDto(GreetingRecordingDto, body);
  return { recordPin: dto.record_pin!, sounddata: Buffer.from(compactBase64(dto.sounddata!), 'base64') };
}

// Line breaks are allowed, as MIME base64 encoders wrap at 76 characters.
function compactBase64(value: string): string {
  return value.replace(/[\r\n]/g, '');
}

function checkSounddata(value: unknown): void {
  if (typeof value !== 'string') throw new ValidationError('sounddata', 'must be a base64 string');
  const compact = compactBase64(value);
  if (compact === '') throw new ValidationError('sounddata', 'must not be empty');
  // Buffer.from(…, 'base64') skips junk silently; only a strict check tells a truncated upload.
  if (compact.length % 4 !== 0 || !BASE64_CHARACTERS.test(compact)) {
    throw new ValidationError('sounddata', 'must be valid base64');
  }
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  if ((compact.length / 4) * 3 - padding > MAX_RECORDING_BYTES) {
    throw new ValidationError('sounddata', `must be at most ${MAX_RECORDING_BYTES} bytes of audio`);
  }
}
