import { ValidationError } from '@trackline/domain';
import { readAtMost } from '@trackline/platform';

export interface RecordingFetcherOptions {
  /** RECORDING_HOSTS: `host`, `*.domain` (any subdomain) or `host:port`; only these are fetched. */
  allowedHosts: readonly string[];
  /** TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN: the Basic auth of the download. */
  accountSid: string;
  authToken: string;
  timeoutMs: number;
  maxBytes: number;
}

/** The recording could not be fetched now (network, provider error); the call waits and tries again. */
export class RecordingUnavailableError extends Error {}

/**
 * Downloads a provider recording as WAV. The URL came in a signed callback, but a callback must
 * still not make us fetch an arbitrary (internal) address: only RECORDING_HOSTS over https — or
 * plain http for an entry that names an explicit `host:port` (a local test server) — and no
 * redirects elsewhere.
 */
export class RecordingFetcher {
  constructor(private readonly options: RecordingFetcherOptions) {}

  /** Throws ValidationError for a URL we will never fetch, RecordingUnavailableError for a failed try. */
  async fetch(recordingUrl: string): Promise<Buffer> {
    const url = this.allowedUrl(recordingUrl, 'RecordingUrl');
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          Authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`,
          Accept: 'audio/wav, audio/x-wav, */*',
        },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new RecordingUnavailableError(`recording download failed: ${(error as Error).message}`);
    }
    if (response.status >= 300 && response.status < 400) {
      // A redirect to storage: follow once, without our credentials, and only to an allowed host.
      const location = response.headers.get('location');
      if (location === null) throw new RecordingUnavailableError('recording redirect without Location');
      const next = this.allowedUrl(new URL(location, url).toString(), 'RecordingUrl redirect');
      response = await fetch(next, {
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      }).catch((error: unknown) => {
        throw new RecordingUnavailableError(`recording download failed: ${(error as Error).message}`);
      });
    }
    if (!response.ok) throw new RecordingUnavailableError(`recording download answered ${response.status}`);
    const declared = Number(response.headers.get('content-length'));
    if (declared > this.options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new ValidationError('RecordingUrl', 'recording is too large');
    }
    // Counted while it streams: a chunked body (or a lying Content-Length) is cut off at the limit,
    // never held whole in memory.
    const audio = await readAtMost(response, this.options.maxBytes).catch((error: unknown) => {
      throw new RecordingUnavailableError(`recording download failed: ${(error as Error).message}`);
    });
    if (!audio.complete) throw new ValidationError('RecordingUrl', 'recording is too large');
    return audio.bytes;
  }

  /** The `.wav` URL when the recording URL may be fetched; a ValidationError naming the rule otherwise. */
  allowedUrl(raw: string, field: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ValidationError(field, 'must be an absolute URL');
    }
    if (url.username !== '' || url.password !== '')
      throw new ValidationError(field, 'must not carry credentials');
    const host = url.host.toLowerCase();
    const hostname = url.hostname.toLowerCase();
    const exactWithPort = this.options.allowedHosts.some(
      (entry) => entry.includes(':') && entry.toLowerCase() === host,
    );
    const byName =
      url.protocol === 'https:' &&
      url.port === '' &&
      this.options.allowedHosts.some((entry) => hostMatches(entry.toLowerCase(), hostname));
    if (!(exactWithPort && (url.protocol === 'http:' || url.protocol === 'https:')) && !byName) {
      throw new ValidationError(field, `host ${host} is not in RECORDING_HOSTS`);
    }
    // Twilio serves the recording in the format its extension names; without one, WAV is asked for.
    if (!/\.(wav|mp3)$/i.test(url.pathname)) url.pathname = `${url.pathname}.wav`;
    return url;
  }
}

function hostMatches(entry: string, hostname: string): boolean {
  if (entry.startsWith('*.')) return hostname.endsWith(entry.slice(1)) && hostname.length > entry.length - 1;
  return entry === hostname;
}
