/** The partner's request budget as the last answer stated it (docs/partner-api.md, Rate limit). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/**
 * An answer with an error status. `message` is the server's explanation (`name: must be at most 60
 * characters`); `retryAfterSeconds` is set on 429 and 503 when the server said when to retry.
 */
export class TracklineApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    readonly rateLimit: RateLimitState | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'TracklineApiError';
  }
}

/** The error message of a management body `{"error": {"status", "message"}}` or a replacement body `{"error": "…"}`. */
export function errorMessage(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : `HTTP ${status}`;
}
