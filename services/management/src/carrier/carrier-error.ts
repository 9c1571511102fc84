import { TracklineError } from '@trackline/domain';

/** Twilio's error codes the service acts on (twilio.com/docs/errors/<code>). */
export const CARRIER_CODES = {
  /** Wrong account SID or auth token. */
  authenticate: 20003,
  /** The resource (a number's sid) is not on the account. */
  notFound: 20404,
  /** Too many requests. */
  tooManyRequests: 20429,
  /** The number asked for is not available (or none matched). */
  notAvailable: 21422,
} as const;

/**
 * Any failure of a request to the carrier: its HTTP status (0 when no answer came: network,
 * timeout), Twilio's error `code` when it sent one, its message, and whether trying again later can
 * help (429, 5xx, no answer). Never carries the auth token. `bought`: in a multi-number buy, the
 * numbers bought and added before this failure.
 */
export class CarrierError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly bought: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CarrierError';
    this.retryable = status === 0 || status === 429 || status >= 500;
  }

  /** The same failure, after `bought` numbers of the same call were bought. */
  afterBuying(bought: readonly string[]): CarrierError {
    return bought.length === 0 ? this : new CarrierError(this.status, this.code, this.message, bought);
  }
}

/** How the partner API answers a carrier failure (docs/carrier-numbers.md, Errors): 409 for "none available", else 502. */
export class CarrierFailedError extends TracklineError {
  readonly status: number;
  readonly code = 'carrier_error';

  constructor(error: CarrierError) {
    const carrier = `carrier answered ${error.status === 0 ? 'nothing' : `HTTP ${error.status}`}${
      error.code === null ? '' : `, code ${error.code}`
    }: ${error.message}`;
    const bought = error.bought.length === 0 ? '' : `; bought before the failure: ${error.bought.join(', ')}`;
    super(`${carrier}${hint(error)}${bought}`);
    this.status = error.code === CARRIER_CODES.notAvailable ? 409 : 502;
  }
}

/** The partner has no carrier account: nothing can be bought or released (409). */
export class CarrierAccountMissingError extends TracklineError {
  readonly status = 409;
  readonly code = 'carrier_account_missing';

  constructor() {
    super(
      'No carrier account is set up; set one with PUT /v1/carrier_account or carrier:set (account_sid, auth_token)',
    );
  }
}

function hint(error: CarrierError): string {
  if (error.code === CARRIER_CODES.authenticate)
    return ' (check the carrier account: account_sid and auth_token)';
  if (error.retryable) return ' (try again later)';
  return '';
}
