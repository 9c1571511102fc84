import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parseMultipartForm } from './multipart-form';

/**
 * A speech-to-text engine behind the standard interface, `POST /v1/audio/transcriptions`
 * (multipart `file`, `model`, `response_format`, optional `language`), answering as whisper.cpp's
 * server does for `verbose_json`: `task`, `language` (the full name, "english"), `duration`, `text`
 * and `segments` with `id`, `text`, `start`, `end` (seconds), `tokens`, `temperature`,
 * `avg_logprob`, `no_speech_prob`. What an audio file "says" is set by the test (`say`), looked up by
 * the file's digest; an audio file nobody set is heard as silence (no segments).
 *
 * Modes, for the failures the pipeline must survive: `down` answers 500 with whisper.cpp's error
 * body, `unreachable` drops the connection, `slow` waits `slowMs` before answering, `garbage`
 * answers 200 with HTML, `empty` answers a transcript with no text, `rate-limited` answers 429.
 */
export type SpeechEngineMode = 'ok' | 'down' | 'unreachable' | 'slow' | 'garbage' | 'empty' | 'rate-limited';

export interface SimulatedSegment {
  start: number;
  end: number;
  text: string;
}

export interface SimulatedSpeech {
  /** ISO 639-1 code the engine detects ("en", "no"). */
  language: string;
  segments: SimulatedSegment[];
}

export interface TranscriptionRequest {
  path: string;
  authorization: string | undefined;
  /** The form's fields but the file. */
  fields: Record<string, string>;
  fileName: string | undefined;
  fileType: string | undefined;
  audio: Buffer;
  /** What the simulator did with it. */
  answeredWith: SpeechEngineMode;
}

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'english',
  no: 'norwegian',
  nn: 'nynorsk',
  sv: 'swedish',
};
const ENDPOINT = '/v1/audio/transcriptions';

export class SpeechEngineSimulator {
  readonly requests: TranscriptionRequest[] = [];
  /** Delay of the `slow` mode. */
  slowMs = 30_000;
  private mode: SpeechEngineMode = 'ok';
  /** Requests the current mode still applies to before `ok` returns; undefined for all of them. */
  private modeLeft: number | undefined;
  private readonly speech = new Map<string, SimulatedSpeech>();
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private port = 0;

  /** With an API key, requests without `Authorization: Bearer <key>` are answered 401. */
  constructor(private readonly apiKey?: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.serve(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  /** `http://127.0.0.1:<port>`: the STT_BASE_URL of the service under test. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** What the engine hears in this audio file. */
  say(audio: Buffer, speech: SimulatedSpeech): void {
    this.speech.set(digest(audio), speech);
  }

  /** From now on, for `times` requests (all when omitted), answer in this mode. */
  setMode(mode: SpeechEngineMode, times?: number): void {
    this.mode = mode;
    this.modeLeft = times;
  }

  private nextMode(): SpeechEngineMode {
    const mode = this.mode;
    if (this.modeLeft !== undefined) {
      this.modeLeft -= 1;
      if (this.modeLeft <= 0) this.setMode('ok');
    }
    return mode;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'POST' || path !== ENDPOINT) return json(res, 404, { error: 'not found' });
    if (this.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.apiKey}`)
      return json(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      });
    const parts = parseMultipartForm(req.headers['content-type'], Buffer.concat(chunks));
    const file = parts?.find((part) => part.name === 'file');
    if (parts === undefined || file === undefined)
      return json(res, 400, { error: 'no audio file in the form' });
    const mode = this.nextMode();
    const fields = Object.fromEntries(
      parts.filter((part) => part !== file).map((part) => [part.name, part.data.toString('utf8')]),
    );
    this.requests.push({
      path,
      authorization: req.headers.authorization,
      fields,
      fileName: file.filename,
      fileType: file.contentType,
      audio: file.data,
      answeredWith: mode,
    });
    await this.answer(res, mode, file.data, fields);
  }

  private async answer(
    res: ServerResponse,
    mode: SpeechEngineMode,
    audio: Buffer,
    fields: Record<string, string>,
  ): Promise<void> {
    switch (mode) {
      case 'down':
        return json(res, 500, { error: 'failed to process audio' });
      case 'unreachable':
        res.socket?.destroy();
        return;
      case 'rate-limited':
        res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
        return;
      case 'garbage':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body>502 Bad Gateway</body></html>');
        return;
      case 'slow':
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.slowMs);
          res.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (res.destroyed) return;
        break;
      default:
        break;
    }
    const heard = this.speech.get(digest(audio)) ?? { language: fields.language ?? 'en', segments: [] };
    const segments = mode === 'empty' ? [] : heard.segments;
    const duration = wavSeconds(audio) ?? segments.reduce((end, segment) => Math.max(end, segment.end), 0);
    json(res, 200, {
      task: 'transcribe',
      language: LANGUAGE_NAMES[heard.language] ?? heard.language,
      duration,
      text: segments.map((segment) => ` ${segment.text}`).join(''),
      segments: segments.map((segment, id) => ({
        id,
        text: ` ${segment.text}`,
        start: segment.start,
        end: segment.end,
        tokens: [],
        temperature: 0,
        avg_logprob: -0.25,
        no_speech_prob: 0.01,
      })),
    });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function digest(audio: Buffer): string {
  return createHash('sha256').update(audio).digest('hex');
}

/** A PCM WAV file's length in seconds from its header, undefined for anything else. */
export function wavSeconds(audio: Buffer): number | undefined {
  if (
    audio.length < 44 ||
    audio.toString('ascii', 0, 4) !== 'RIFF' ||
    audio.toString('ascii', 8, 12) !== 'WAVE'
  )
    return undefined;
  let at = 12;
  let byteRate: number | undefined;
  while (at + 8 <= audio.length) {
    const id = audio.toString('ascii', at, at + 4);
    const size = audio.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = audio.readUInt32LE(at + 16);
    if (id === 'data' && byteRate !== undefined && byteRate > 0)
      return Math.round((Math.min(size, audio.length - at - 8) / byteRate) * 100) / 100;
    at += 8 + size + (size % 2);
  }
  return undefined;
}
