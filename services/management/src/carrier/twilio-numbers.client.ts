import { setTimeout as sleep } from 'node:timers/promises';
import { CARRIER_CODES, CarrierError } from './carrier-error';
import type { CarrierAccount } from './carrier-account';

const API_VERSION = '2010-04-01';
/** Owned numbers per page while looking for one; Twilio's maximum is 1000. */
const OWNED_PAGE_SIZE = 50;
/** A list that keeps answering next_page_uri is cut off here rather than followed forever. */
const MAX_PAGES = 100;

export interface CarrierClientOptions {
  /** One request, connect to last byte read. */
  timeoutMs: number;
  /** A 429 is asked again this many times (a 429 was not acted on, so even a purchase is safe to repeat). */
  rateLimitRetries: number;
  /** Wait before the first repeat, doubled each time; a Retry-After header of the carrier wins when longer. */
  retryDelayMs: number;
}

/** A number on sale, as AvailablePhoneNumbers answers it. */
export interface AvailableCarrierNumber {
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  isoCountry: string;
  voice: boolean;
}

/** A number the account owns (Twilio's IncomingPhoneNumber). */
export interface OwnedCarrierNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string | null;
  statusCallback: string | null;
}

export interface SearchCriteria {
  /** ISO 3166-1 alpha-2. */
  country: string;
  areaCode?: string;
  /** Digits and `*` (any one digit). */
  contains?: string;
  limit: number;
}

export interface Purchase {
  phoneNumber: string;
  voiceUrl: string;
  statusCallback: string;
  /** The purchase's own key, so the reconciler can tell it from numbers bought elsewhere. */
  friendlyName: string;
}

/** The carrier's phone-number API as the carrier service uses it; faked in unit tests. */
export interface CarrierNumbersClient {
  searchAvailable(criteria: SearchCriteria): Promise<AvailableCarrierNumber[]>;
  buy(purchase: Purchase): Promise<OwnedCarrierNumber>;
  /** The owned number with exactly this E.164, following every page; null when the account has none. */
  findOwned(phoneNumber: string): Promise<OwnedCarrierNumber | null>;
  release(sid: string): Promise<void>;
}

type Json = Record<string, unknown>;

/**
 * What every bought number is pointed at (docs/telephony.md, Pointing a number at Trackline): the
 * replacement service's voice webhook and management's status callback, both POST.
 */
export function numberWebhooks(
  replacementPublicUrl: string,
  managementPublicUrl: string,
): Pick<Purchase, 'voiceUrl' | 'statusCallback'> {
  return {
    voiceUrl: `${replacementPublicUrl}/telephony/twilio/voice`,
    statusCallback: `${managementPublicUrl}/telephony/twilio/call-status`,
  };
}

/**
 * Twilio's REST API for phone numbers (twilio.com/docs/phone-numbers/api), which SignalWire's
 * Compatibility API serves under its own base URL: Basic auth of the account SID and auth token,
 * form-encoded writes, JSON answers. Every failure is a CarrierError.
 */
export class TwilioNumbersClient implements CarrierNumbersClient {
  private readonly authorization: string;

  constructor(
    private readonly account: Pick<CarrierAccount, 'accountSid' | 'authToken' | 'baseUrl'>,
    private readonly options: CarrierClientOptions,
  ) {
    this.authorization = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
  }

  async searchAvailable(criteria: SearchCriteria): Promise<AvailableCarrierNumber[]> {
    const query = new URLSearchParams({ PageSize: String(criteria.limit) });
    if (criteria.areaCode !== undefined) query.set('AreaCode', criteria.areaCode);
    if (criteria.contains !== undefined) query.set('Contains', criteria.contains);
    const body = await this.request(
      'GET',
      this.accountUrl(`/AvailablePhoneNumbers/${criteria.country}/Local.json?${query.toString()}`),
    );
    return list(body, 'available_phone_numbers').map((number) => ({
      phoneNumber: String(number.phone_number),
      friendlyName: String(number.friendly_name ?? number.phone_number),
      locality: stringOrNull(number.locality),
      region: stringOrNull(number.region),
      isoCountry: String(number.iso_country ?? criteria.country),
      voice: (number.capabilities as Json | undefined)?.voice !== false,
    }));
  }

  async buy(purchase: Purchase): Promise<OwnedCarrierNumber> {
    const form = new URLSearchParams({
      PhoneNumber: purchase.phoneNumber,
      VoiceUrl: purchase.voiceUrl,
      VoiceMethod: 'POST',
      StatusCallback: purchase.statusCallback,
      StatusCallbackMethod: 'POST',
      FriendlyName: purchase.friendlyName,
    });
    return owned(await this.request('POST', this.accountUrl('/IncomingPhoneNumbers.json'), form));
  }

  async findOwned(phoneNumber: string): Promise<OwnedCarrierNumber | null> {
    const query = new URLSearchParams({ PhoneNumber: phoneNumber, PageSize: String(OWNED_PAGE_SIZE) });
    let url: string | null = this.accountUrl(`/IncomingPhoneNumbers.json?${query.toString()}`);
    for (let page = 0; url !== null && page < MAX_PAGES; page++) {
      const body = await this.request('GET', url);
      // The filter may match partially (Twilio allows patterns): only the exact number counts.
      const found = list(body, 'incoming_phone_numbers').find(
        (number) => number.phone_number === phoneNumber,
      );
      if (found !== undefined) return owned(found);
      url = typeof body.next_page_uri === 'string' ? this.resolve(body.next_page_uri) : null;
    }
    return null;
  }

  async release(sid: string): Promise<void> {
    await this.request('DELETE', this.accountUrl(`/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`));
  }

  private accountUrl(path: string): string {
    return `${this.account.baseUrl}/${API_VERSION}/Accounts/${encodeURIComponent(this.account.accountSid)}${path}`;
  }

  /**
   * A page URI as the carrier sends it: a path from its host (Twilio: `/2010-04-01/...`;
   * SignalWire: `/api/laml/2010-04-01/...`), resolved against the configured base URL.
   */
  private resolve(uri: string): string {
    const base = new URL(this.account.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (uri.startsWith(`/${API_VERSION}/`) && prefix !== '') return `${base.origin}${prefix}${uri}`;
    return new URL(uri, base.origin).toString();
  }

  private async request(method: string, url: string, form?: URLSearchParams): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(method, url, form);
      if (answer.status !== 429 || attempt >= this.options.rateLimitRetries) return answerOrThrow(answer);
      const retryAfterMs = Number(answer.retryAfter) * 1000;
      const backoff = this.options.retryDelayMs * 2 ** attempt;
      await sleep(Number.isFinite(retryAfterMs) && retryAfterMs > backoff ? retryAfterMs : backoff);
    }
  }

  private async once(
    method: string,
    url: string,
    form: URLSearchParams | undefined,
  ): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Authorization: this.authorization,
          Accept: 'application/json',
          ...(form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
        },
        body: form?.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      // The URL holds no secret; the token is only in the header.
      throw new CarrierError(0, null, `no answer from ${new URL(url).host}: ${describe(error)}`);
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
  }
}

function answerOrThrow(answer: { status: number; body: unknown }): Json {
  if (answer.status >= 200 && answer.status < 300) return isJson(answer.body) ? answer.body : {};
  const body = isJson(answer.body) ? answer.body : {};
  const code =
    typeof body.code === 'number' ? body.code : answer.status === 429 ? CARRIER_CODES.tooManyRequests : null;
  const message = typeof body.message === 'string' ? body.message : `HTTP ${answer.status}`;
  throw new CarrierError(answer.status, code, message);
}

function owned(body: Json): OwnedCarrierNumber {
  if (typeof body.sid !== 'string' || typeof body.phone_number !== 'string')
    throw new CarrierError(502, null, 'the carrier answered a number without sid or phone_number');
  return {
    sid: body.sid,
    phoneNumber: body.phone_number,
    friendlyName: String(body.friendly_name ?? ''),
    voiceUrl: stringOrNull(body.voice_url),
    statusCallback: stringOrNull(body.status_callback),
  };
}

function list(body: Json, key: string): Json[] {
  const items = body[key];
  return Array.isArray(items) ? items.filter(isJson) : [];
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

// Duck-typed: the abort's DOMException need not be an Error of this realm.
function describe(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'TimeoutError') return 'timed out';
  return typeof message === 'string' ? message : String(error);
}
