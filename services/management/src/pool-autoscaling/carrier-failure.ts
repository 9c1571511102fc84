import { TracklineError } from '@trackline/domain';
import { CarrierError } from '../carrier/carrier-error';

/** What the audit, the API and the metric say about a failed carrier call. */
export interface CarrierFailure {
  /**
   * The carrier's own code (Twilio's 20003, 21422, …), else its HTTP status, `unreachable` when no
   * answer came, the refusal's code (`carrier_account_missing`), or `error`.
   */
  code: string;
  message: string;
}

export function describeCarrierFailure(error: unknown): CarrierFailure {
  if (error instanceof CarrierError) {
    const code = error.code ?? (error.status === 0 ? 'unreachable' : error.status);
    return { code: String(code), message: error.message };
  }
  if (error instanceof TracklineError) return { code: error.code, message: error.message };
  // A fault on the way (the inventory's store, say): recorded as the evaluation's failure too.
  return { code: 'error', message: error instanceof Error ? error.message : String(error) };
}
