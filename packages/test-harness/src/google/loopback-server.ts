import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What a simulator's handler sees of one request: the parts Google's endpoints read. */
export interface SimulatedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface SimulatedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A plain-HTTP server on 127.0.0.1 with a free port, for the Google simulators. The services under
 * test reach it through their configurable base URLs.
 */
export class LoopbackServer {
  private server: Server | null = null;
  private port = 0;

  constructor(private readonly handle: (request: SimulatedRequest) => SimulatedResponse) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://simulator');
    const answer = this.handle({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.writeHead(answer.status, answer.headers ?? {});
    res.end(answer.body ?? '');
  }
}

export function jsonResponse(status: number, body: unknown): SimulatedResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(body),
  };
}

/** The parsed JSON body, or undefined when it is not JSON. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
