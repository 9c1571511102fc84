import { createServer, type Server } from 'node:http';

export interface RecordingDownload {
  path: string;
  authorized: boolean;
}

/**
 * The provider's recording store on loopback: `GET /2010-04-01/Accounts/<AccountSid>/Recordings/<sid>.wav`
 * with HTTP Basic auth (AccountSid:AuthToken), 401 otherwise, 404 for an unknown recording.
 */
export class RecordingServer {
  readonly downloads: RecordingDownload[] = [];
  private readonly recordings = new Map<string, Buffer>();
  private server: Server | null = null;
  private port = 0;

  constructor(
    private readonly accountSid: string,
    private readonly authToken: string,
  ) {}

  async start(): Promise<void> {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    this.server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      const authorized = req.headers.authorization === expected;
      this.downloads.push({ path, authorized });
      if (!authorized) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="recordings"' });
        res.end();
        return;
      }
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Recordings\/([^/.]+)\.wav$/.exec(path);
      const audio =
        match !== null && match[1] === this.accountSid ? this.recordings.get(match[2]!) : undefined;
      if (audio === undefined) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'audio/x-wav', 'Content-Length': audio.length });
      res.end(audio);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  /** `127.0.0.1:<port>`, for RECORDING_HOSTS. */
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The RecordingUrl the provider reports: no extension; `.wav` selects the format. */
  add(recordingSid: string, audio: Buffer): string {
    this.recordings.set(recordingSid, audio);
    return `http://${this.host}/2010-04-01/Accounts/${this.accountSid}/Recordings/${recordingSid}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A small valid WAV file (8 kHz 16-bit PCM, mono or the two channels of a dual recording), distinct per seed. */
export function testWav(seconds: number, seed = 1, channels: 1 | 2 = 1): Buffer {
  const samples = Math.max(1, Math.round(8000 * seconds));
  const data = Buffer.alloc(samples * 2 * channels);
  for (let i = 0; i < samples; i++)
    for (let channel = 0; channel < channels; channel++)
      data.writeInt16LE(
        Math.round(Math.sin((i * (seed + channel)) / 10) * 8000),
        (i * channels + channel) * 2,
      );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000 * channels, 28);
  header.writeUInt16LE(2 * channels, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
