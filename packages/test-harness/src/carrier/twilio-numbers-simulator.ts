import { randomBytes } from 'node:crypto';
import {
  jsonResponse,
  LoopbackServer,
  type SimulatedRequest,
  type SimulatedResponse,
} from '../google/loopback-server';

const API = '/2010-04-01/Accounts';
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/** Numbers the simulated carrier has for sale: NANP numbers of an area code, or numbers as given. */
export type AvailableStock =
  | { country: string; areaCode: string; count: number; locality?: string; region?: string }
  | { country: string; numbers: readonly string[]; locality?: string; region?: string };

/** One number on sale, as AvailablePhoneNumbers answers it. */
export interface AvailableNumber {
  phoneNumber: string;
  country: string;
  areaCode: string | null;
  locality: string;
  region: string;
}

/** A number the account owns (an IncomingPhoneNumber), with what the purchase set on it. */
export interface OwnedNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string | null;
  voiceMethod: string;
  statusCallback: string | null;
  statusCallbackMethod: string;
  dateCreated: Date;
  country: string;
}

/** Every request the simulator received, answered or refused, in order. */
export interface RecordedCarrierRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The form-encoded body's fields (POST). */
  form: Record<string, string>;
  /** The status it was answered with. */
  status: number;
}

/**
 * Twilio's phone-number REST API (AvailablePhoneNumbers Local, IncomingPhoneNumbers list, create,
 * delete) on a loopback port, as twilio.com/docs/phone-numbers/api documents it: Basic auth of the
 * account SID and auth token (401, code 20003), JSON answers and Twilio's error shape
 * (`code`, `message`, `more_info`, `status`), paged lists with `next_page_uri`. The test stocks
 * numbers for sale, can answer the next requests 429 (code 20429) or 5xx, and reads every request.
 * SignalWire's Compatibility API serves the same paths under `/api/laml`; `pathPrefix` mimics it.
 */
export class TwilioNumbersSimulator {
  readonly accountSid: string;
  readonly authToken: string;
  readonly requests: RecordedCarrierRequest[] = [];
  private readonly server: LoopbackServer;
  private readonly available: AvailableNumber[] = [];
  private readonly owned = new Map<string, OwnedNumber>();
  private failures: Array<{ status: number; code: number; message: string; method?: string }> = [];
  private readonly pathPrefix: string;
  /**
   * `ignored`: the owned-number list answers every number whatever `PhoneNumber` asks, as a
   * carrier whose filter is partial or missing would; a client must then page and match itself.
   */
  phoneNumberFilter: 'exact' | 'ignored' = 'exact';

  constructor(options: { accountSid?: string; authToken?: string; pathPrefix?: string } = {}) {
    this.accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
    this.authToken = options.authToken ?? randomBytes(16).toString('hex');
    this.pathPrefix = options.pathPrefix ?? '';
    this.server = new LoopbackServer((request) => this.record(request, this.answer(request)));
  }

  start(): Promise<void> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The base URL a client is configured with (`https://api.twilio.com` in production). */
  get baseUrl(): string {
    return `${this.server.baseUrl}${this.pathPrefix}`;
  }

  /** Puts numbers on sale; answers them in the order the search will list them. */
  stock(stock: AvailableStock): string[] {
    const numbers =
      'numbers' in stock
        ? [...stock.numbers]
        : Array.from(
            { length: stock.count },
            (_, i) => `+1${stock.areaCode}555${String(i).padStart(4, '0')}`,
          );
    for (const phoneNumber of numbers) {
      if (this.available.some((number) => number.phoneNumber === phoneNumber)) continue;
      this.available.push({
        phoneNumber,
        country: stock.country,
        areaCode: 'areaCode' in stock ? stock.areaCode : null,
        locality: stock.locality ?? 'Springfield',
        region: stock.region ?? 'IL',
      });
    }
    return numbers;
  }

  /** Gives the account a number directly (bought elsewhere, e.g. in the console). */
  own(phoneNumber: string, friendlyName = phoneNumber): OwnedNumber {
    const number = this.newOwned(phoneNumber, 'US', { FriendlyName: friendlyName });
    this.owned.set(number.sid, number);
    return number;
  }

  /** The next `count` requests (whatever they ask) are answered 429, code 20429. */
  rateLimit(count: number): void {
    this.failWith(count, { status: 429, code: 20429, message: 'Too Many Requests' });
  }

  /** The next `count` requests (of `method` only, when given) are answered with this error. */
  failWith(count: number, error: { status: number; code: number; message: string }, method?: string): void {
    for (let i = 0; i < count; i++) this.failures.push({ ...error, method });
  }

  /** The numbers the account owns now, oldest purchase first. */
  ownedNumbers(): OwnedNumber[] {
    return [...this.owned.values()];
  }

  /** The purchases that succeeded (POSTs to IncomingPhoneNumbers answered 201). */
  purchases(): RecordedCarrierRequest[] {
    return this.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path.endsWith('/IncomingPhoneNumbers.json') &&
        request.status === 201,
    );
  }

  private record(request: SimulatedRequest, response: SimulatedResponse): SimulatedResponse {
    this.requests.push({
      method: request.method,
      path: request.path,
      query: Object.fromEntries(request.query),
      form: request.method === 'POST' ? Object.fromEntries(new URLSearchParams(request.body)) : {},
      status: response.status,
    });
    return response;
  }

  private answer(request: SimulatedRequest): SimulatedResponse {
    if (!request.path.startsWith(`${this.pathPrefix}${API}/`)) return notFound(request.path);
    const path = request.path.slice(this.pathPrefix.length);
    const [accountSid, ...rest] = path.slice(API.length + 1).split('/');
    if (!this.authenticated(request, accountSid!)) {
      return twilioError(401, 20003, 'Authenticate', 'Your AccountSid or AuthToken was incorrect.');
    }
    const failing = this.failures.findIndex(
      (failure) => failure.method === undefined || failure.method === request.method,
    );
    if (failing >= 0) {
      const [failure] = this.failures.splice(failing, 1);
      return twilioError(failure!.status, failure!.code, failure!.message);
    }
    const resource = rest.join('/');
    const available = /^AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(resource);
    if (available !== null && request.method === 'GET')
      return this.search(path, available[1]!, request.query);
    if (resource === 'IncomingPhoneNumbers.json') {
      if (request.method === 'GET') return this.list(path, request.query);
      if (request.method === 'POST') return this.buy(new URLSearchParams(request.body));
    }
    const instance = /^IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(resource);
    if (instance !== null && request.method === 'DELETE') return this.release(path, instance[1]!);
    if (instance !== null && request.method === 'GET') {
      const number = this.owned.get(instance[1]!);
      return number === undefined ? notFound(path) : jsonResponse(200, this.resource(number));
    }
    return notFound(path);
  }

  private authenticated(request: SimulatedRequest, accountSid: string): boolean {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const expected = `${this.accountSid}:${this.authToken}`;
    return (
      Buffer.from(header.slice(6), 'base64').toString('utf8') === expected && accountSid === this.accountSid
    );
  }

  private search(path: string, country: string, query: URLSearchParams): SimulatedResponse {
    const areaCode = query.get('AreaCode');
    const contains = containsPattern(query.get('Contains'));
    const pageSize = Math.min(
      Number(query.get('PageSize') ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE,
      MAX_PAGE_SIZE,
    );
    const matching = this.available.filter(
      (number) =>
        number.country === country &&
        (areaCode === null || number.areaCode === areaCode) &&
        (contains === null || contains.test(number.phoneNumber.slice(1))),
    );
    return jsonResponse(200, {
      available_phone_numbers: matching.slice(0, pageSize).map((number) => ({
        friendly_name: friendlyName(number.phoneNumber),
        phone_number: number.phoneNumber,
        lata: null,
        locality: number.locality,
        rate_center: null,
        latitude: null,
        longitude: null,
        region: number.region,
        postal_code: null,
        iso_country: number.country,
        address_requirements: 'none',
        beta: false,
        capabilities: { voice: true, SMS: true, MMS: false, fax: false },
      })),
      uri: `${this.pathPrefix}${path}?${query.toString()}`,
    });
  }

  private buy(form: URLSearchParams): SimulatedResponse {
    const phoneNumber = form.get('PhoneNumber');
    const areaCode = form.get('AreaCode');
    if (phoneNumber === null && areaCode === null) {
      return twilioError(400, 21452, 'A phone number or area code is required.');
    }
    const index = this.available.findIndex((number) =>
      phoneNumber !== null ? number.phoneNumber === phoneNumber : number.areaCode === areaCode,
    );
    if (index < 0) {
      return twilioError(
        400,
        21422,
        phoneNumber !== null
          ? `PhoneNumber ${phoneNumber} is not available.`
          : `No phone numbers found in area code ${areaCode}.`,
      );
    }
    const [bought] = this.available.splice(index, 1);
    const number = this.newOwned(bought!.phoneNumber, bought!.country, Object.fromEntries(form));
    this.owned.set(number.sid, number);
    return jsonResponse(201, this.resource(number));
  }

  private list(path: string, query: URLSearchParams): SimulatedResponse {
    const pageSize = Math.min(
      Math.max(Number(query.get('PageSize') ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE, 1),
      MAX_PAGE_SIZE,
    );
    const page = Math.max(Number(query.get('Page') ?? 0) || 0, 0);
    const filter = query.get('PhoneNumber');
    const friendly = query.get('FriendlyName');
    const matching = this.ownedNumbers().filter(
      (number) =>
        (filter === null || this.phoneNumberFilter === 'ignored' || number.phoneNumber === filter) &&
        (friendly === null || number.friendlyName === friendly),
    );
    const start = page * pageSize;
    const items = matching.slice(start, start + pageSize);
    const pageUri = (n: number) => {
      const params = new URLSearchParams(query);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(n));
      return `${this.pathPrefix}${path}?${params.toString()}`;
    };
    return jsonResponse(200, {
      incoming_phone_numbers: items.map((number) => this.resource(number)),
      page,
      page_size: pageSize,
      start,
      end: start + Math.max(items.length - 1, 0),
      uri: pageUri(page),
      first_page_uri: pageUri(0),
      next_page_uri: start + pageSize < matching.length ? pageUri(page + 1) : null,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
    });
  }

  private release(path: string, sid: string): SimulatedResponse {
    if (!this.owned.delete(sid)) return notFound(path);
    return { status: 204 };
  }

  private newOwned(phoneNumber: string, country: string, form: Record<string, string>): OwnedNumber {
    return {
      sid: `PN${randomBytes(16).toString('hex')}`,
      phoneNumber,
      friendlyName: form.FriendlyName ?? friendlyName(phoneNumber),
      voiceUrl: form.VoiceUrl ?? null,
      voiceMethod: form.VoiceMethod ?? 'POST',
      statusCallback: form.StatusCallback ?? null,
      statusCallbackMethod: form.StatusCallbackMethod ?? 'POST',
      dateCreated: new Date(),
      country,
    };
  }

  private resource(number: OwnedNumber): Record<string, unknown> {
    const date = rfc2822(number.dateCreated);
    return {
      sid: number.sid,
      account_sid: this.accountSid,
      friendly_name: number.friendlyName,
      phone_number: number.phoneNumber,
      voice_url: number.voiceUrl,
      voice_method: number.voiceMethod,
      voice_fallback_url: null,
      voice_fallback_method: 'POST',
      status_callback: number.statusCallback,
      status_callback_method: number.statusCallbackMethod,
      voice_caller_id_lookup: false,
      sms_url: '',
      sms_method: 'POST',
      capabilities: { voice: true, sms: true, mms: false, fax: false },
      beta: false,
      origin: 'twilio',
      status: 'in-use',
      address_requirements: 'none',
      api_version: '2010-04-01',
      date_created: date,
      date_updated: date,
      uri: `${this.pathPrefix}${API}/${this.accountSid}/IncomingPhoneNumbers/${number.sid}.json`,
    };
  }
}

/** Twilio's `Contains`: digits, `*` for any one digit, matched anywhere in the number. */
function containsPattern(contains: string | null): RegExp | null {
  if (contains === null || contains === '') return null;
  if (!/^[0-9*]+$/.test(contains)) return /$^/;
  return new RegExp(contains.replace(/\*/g, '[0-9]'));
}

function friendlyName(e164: string): string {
  const national = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return national === null ? e164 : `(${national[1]}) ${national[2]}-${national[3]}`;
}

/** Twilio's dates: RFC 2822 in GMT, `Sun, 29 Nov 2026 02:26:07 +0000`. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

function twilioError(status: number, code: number, message: string, detail?: string): SimulatedResponse {
  return jsonResponse(status, {
    code,
    message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
    ...(detail === undefined ? {} : { detail }),
  });
}

function notFound(path: string): SimulatedResponse {
  return twilioError(404, 20404, `The requested resource ${path} was not found`);
}
