import { randomBytes } from 'node:crypto';
import { jsonResponse, type SimulatedRequest, type SimulatedResponse } from './loopback-server';

/** An OAuth client of the Google Cloud project and the refresh token a user granted it. */
export interface OAuthGrant {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

const TOKEN_LIFETIME_SECONDS = 3599;

/**
 * Google's OAuth 2.0 token endpoint (`POST /token`, form-encoded) for the refresh-token grant:
 * `grant_type=refresh_token`, `client_id`, `client_secret`, `refresh_token` give
 * `{access_token, expires_in, scope, token_type: "Bearer"}`; an unknown client is 401
 * `invalid_client`, a refresh token the client was not granted is 400 `invalid_grant`.
 */
export class OAuthTokenEndpoint {
  /** Every exchange asked for, in order. */
  readonly exchanges: { clientId: string | null; granted: boolean }[] = [];
  private readonly tokens = new Map<string, number>();

  constructor(
    private readonly grant: OAuthGrant,
    private readonly now: () => number,
  ) {}

  answer(request: SimulatedRequest): SimulatedResponse {
    if (request.method !== 'POST') return { status: 405 };
    if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return oauthError(400, 'invalid_request', 'Invalid content type');
    const form = new URLSearchParams(request.body);
    const clientId = form.get('client_id');
    const granted = this.grants(form);
    this.exchanges.push({ clientId, granted: granted.status === 200 });
    return granted;
  }

  /** Whether the bearer token was issued here and has not expired. */
  isValid(authorization: string | undefined): boolean {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const expiresAt = token === undefined ? undefined : this.tokens.get(token);
    return expiresAt !== undefined && expiresAt > this.now();
  }

  /** Ends every token issued so far, as a revocation or their expiry would. */
  expireAll(): void {
    this.tokens.clear();
  }

  private grants(form: URLSearchParams): SimulatedResponse {
    if (form.get('grant_type') !== 'refresh_token')
      return oauthError(
        400,
        'unsupported_grant_type',
        'Invalid grant_type: ' + (form.get('grant_type') ?? ''),
      );
    if (
      form.get('client_id') !== this.grant.clientId ||
      form.get('client_secret') !== this.grant.clientSecret
    )
      return oauthError(401, 'invalid_client', 'Unauthorized');
    if (form.get('refresh_token') !== this.grant.refreshToken)
      return oauthError(400, 'invalid_grant', 'Bad Request');
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(accessToken, this.now() + TOKEN_LIFETIME_SECONDS * 1000);
    return jsonResponse(200, {
      access_token: accessToken,
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: 'https://www.googleapis.com/auth/adwords',
      token_type: 'Bearer',
    });
  }
}

function oauthError(status: number, error: string, description: string): SimulatedResponse {
  return jsonResponse(status, { error, error_description: description });
}
