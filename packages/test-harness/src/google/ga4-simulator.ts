import { validateGa4Body, type Ga4ValidationMessage } from './ga4-validation';
import {
  jsonResponse,
  LoopbackServer,
  parseJson,
  type SimulatedRequest,
  type SimulatedResponse,
} from './loopback-server';

/** A GA4 web data stream: its measurement id and one Measurement Protocol API secret. */
export interface Ga4Stream {
  measurementId: string;
  apiSecret: string;
}

/** One POST to `/mp/collect`, whatever became of it. */
export interface Ga4Hit {
  measurementId: string | null;
  apiSecret: string | null;
  contentType: string | null;
  body: unknown;
  validationMessages: Ga4ValidationMessage[];
  /** Whether Google would keep it: a known stream, its secret, and a body that validates. */
  collected: boolean;
}

/** One event Google kept, with the request fields it is reported under. */
export interface Ga4CollectedEvent {
  measurementId: string;
  clientId: string;
  timestampMicros: number | null;
  name: string;
  params: Record<string, unknown>;
}

/**
 * The GA4 Measurement Protocol as Google documents it. `POST /mp/collect?measurement_id=…&api_secret=…`
 * answers 204 to everything — an invalid payload, an unknown stream or a wrong secret included — and
 * silently drops what it cannot use; `POST /debug/mp/collect` answers 200 with `validationMessages`
 * and collects nothing (it does not check the stream or the secret either). Every hit is kept in
 * `hits`, every kept event in `collected`, so a test asserts what reached the property.
 */
export class Ga4Simulator {
  readonly hits: Ga4Hit[] = [];
  readonly collected: Ga4CollectedEvent[] = [];
  private readonly server = new LoopbackServer((request) => this.answer(request));

  constructor(
    private readonly streams: readonly Ga4Stream[],
    private readonly now: () => number = Date.now,
  ) {}

  start(): Promise<void> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The base URL that replaces `https://www.google-analytics.com`. */
  get baseUrl(): string {
    return this.server.baseUrl;
  }

  /** Kept events of one name (and client, when given). */
  eventsNamed(name: string, clientId?: string): Ga4CollectedEvent[] {
    return this.collected.filter(
      (event) => event.name === name && (clientId === undefined || event.clientId === clientId),
    );
  }

  private answer(request: SimulatedRequest): SimulatedResponse {
    if (request.method !== 'POST') return { status: 405 };
    const body = parseJson(request.body) ?? request.body;
    const validationMessages = validateGa4Body(parseJson(request.body), this.now() * 1000);
    if (request.path === '/debug/mp/collect') return jsonResponse(200, { validationMessages });
    if (request.path !== '/mp/collect') return { status: 404 };
    const measurementId = request.query.get('measurement_id');
    const apiSecret = request.query.get('api_secret');
    const known = this.streams.some(
      (stream) => stream.measurementId === measurementId && stream.apiSecret === apiSecret,
    );
    const collected = known && validationMessages.length === 0;
    this.hits.push({
      measurementId,
      apiSecret,
      contentType: request.headers['content-type'] ?? null,
      body,
      validationMessages,
      collected,
    });
    if (collected) this.collect(measurementId!, body as Record<string, unknown>);
    return { status: 204 };
  }

  private collect(measurementId: string, body: Record<string, unknown>): void {
    const timestamp = body.timestamp_micros;
    for (const event of body.events as { name: string; params?: Record<string, unknown> }[])
      this.collected.push({
        measurementId,
        clientId: body.client_id as string,
        timestampMicros: timestamp === undefined ? null : Number(timestamp),
        name: event.name,
        params: event.params ?? {},
      });
  }
}
