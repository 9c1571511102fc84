import { DEFAULT_REDACTION, redactText } from '@trackline/domain';

/**
 * The speech engine behind the standard transcription interface (docs/call-intelligence.md, The
 * engine): `POST {base}/v1/audio/transcriptions`, multipart `file`, `model`,
 * `response_format=verbose_json`, as whisper.cpp's server, faster-whisper servers, LocalAI, vLLM and
 * hosted providers answer it. Any engine that speaks it works; nothing here knows which one it is.
 */
export interface SpeechEngineSettings {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

export interface HeardSegment {
  start: number;
  end: number;
  text: string;
}

export interface HeardSpeech {
  /** As the engine names it ("en", "english", "no"); null when it did not say. */
  language: string | null;
  /** Seconds of audio, from the engine or from the segments. */
  durationSeconds: number;
  segments: HeardSegment[];
}

/** Why the engine gave no transcript; `retry` says whether another attempt may do better. */
export class SpeechEngineError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** An answer larger than this is not a transcript of a phone call. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export interface AudioFile {
  audio: Buffer;
  fileName: string;
  contentType: string;
}

export async function transcribe(settings: SpeechEngineSettings, file: AudioFile): Promise<HeardSpeech> {
  const form = new FormData();
  form.append('file', new Blob([file.audio], { type: file.contentType }), file.fileName);
  form.append('model', settings.model);
  form.append('response_format', 'verbose_json');
  let answer: Response;
  try {
    answer = await fetch(`${settings.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: settings.apiKey === null ? {} : { Authorization: `Bearer ${settings.apiKey}` },
      body: form,
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    // undici throws the timeout itself, or a "fetch failed" whose cause it is (once the body streams).
    const names = [(error as Error).name, (error as { cause?: Error }).cause?.name];
    const timedOut = names.includes('TimeoutError') || names.includes('AbortError');
    throw new SpeechEngineError(
      timedOut ? `no answer within ${settings.timeoutMs} ms` : `unreachable: ${causeOf(error)}`,
      true,
    );
  }
  const body = await readCapped(answer);
  if (!answer.ok)
    // A refusal of this file (400, 413, 415) will not change; anything else (5xx, 429, 401 while the
    // operator fixes the key) may.
    throw new SpeechEngineError(
      `answered ${answer.status}: ${printable(body)}`,
      ![400, 413, 415, 422].includes(answer.status),
    );
  return readVerboseJson(body);
}

/** The answer's JSON checked for the shape the interface promises; anything else is "garbage". */
export function readVerboseJson(body: string): HeardSpeech {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // Its first bytes stay out of the reason: an engine that ignored response_format answers the
    // transcript itself, unredacted.
    throw new SpeechEngineError(`answered something that is not JSON (${body.length} bytes)`, true);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new SpeechEngineError('answered JSON that is not an object', true);
  const record = json as Record<string, unknown>;
  const segments = Array.isArray(record.segments)
    ? record.segments.map(readSegment)
    : typeof record.text === 'string'
      ? [{ start: 0, end: numberOr(record.duration, 0), text: record.text }]
      : undefined;
  if (segments === undefined || segments.includes(undefined))
    throw new SpeechEngineError('answered JSON without text or with malformed segments', true);
  const heard = (segments as HeardSegment[])
    .map((segment) => ({ ...segment, text: segment.text.trim() }))
    .filter((segment) => segment.text !== '');
  // Silence, or an engine that lost the audio: a second attempt hears the same.
  if (heard.length === 0) throw new SpeechEngineError('heard no speech (an empty transcript)', false);
  return {
    language: typeof record.language === 'string' && record.language !== '' ? record.language : null,
    durationSeconds: numberOr(record.duration, Math.max(...heard.map((segment) => segment.end))),
    segments: heard,
  };
}

function readSegment(value: unknown): HeardSegment | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { start, end, text } = value as Record<string, unknown>;
  if (typeof text !== 'string' || typeof start !== 'number' || typeof end !== 'number') return undefined;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start || start < 0) return undefined;
  return { start, end, text };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

async function readCapped(answer: Response): Promise<string> {
  if (answer.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new SpeechEngineError(`answered more than ${MAX_ANSWER_BYTES} bytes`, true);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The first bytes of an error answer for the reason, redacted all the same. */
function printable(body: string): string {
  return redactText(body.replace(/\s+/g, ' ').slice(0, 120), DEFAULT_REDACTION);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
