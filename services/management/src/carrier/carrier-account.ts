/** Twilio's REST API; SignalWire's Compatibility API is `https://<space>.signalwire.com/api/laml`. */
export const DEFAULT_CARRIER_BASE_URL = 'https://api.twilio.com';

/** A partner's account at its carrier (docs/carrier-numbers.md, Credentials). */
export interface CarrierAccount {
  /** Twilio's account SID (`AC` + 32 hex) or SignalWire's project id (a UUID). */
  accountSid: string;
  /** Without a trailing slash; the `/2010-04-01/...` paths are added to it. */
  baseUrl: string;
  /** Write-only: never shown by the API or the CLI. */
  authToken: string;
  modified: Date;
}
