import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { freePort } from '@trackline/test-harness';
import { runningUnderCi } from './test-support/prometheus-binaries';
import { missingBuiltFiles, startTracklineStack, type TracklineStack } from './test-support/trackline-stack';

// A demo pool number (`pnpm start` gives the demo partner +4791000001–10).
const POOL_NUMBER = '+4791000001';
jest.setTimeout(180_000);

const missing = missingBuiltFiles();
if (missing.length > 0) {
  const message = `the services are not built (${missing.join(', ')}); run pnpm build`;
  if (runningUnderCi()) throw new Error(message);
  console.warn(`Skipping the tracing integration test: ${message}.`);
}
const describeRunnable = missing.length === 0 ? describe : describe.skip;

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpTraces {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** OTLP/JSON ids are hex; base64 (the protobuf JSON mapping) is accepted too. */
function hex(id: string | undefined): string {
  if (id === undefined || id === '') return '';
  return /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}

function attributes(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue]));
}

/** A minimal OTLP/HTTP receiver (JSON encoding, `POST /v1/traces`), as a collector would be. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const traces = JSON.parse(body) as OtlpTraces;
        for (const resourceSpans of traces.resourceSpans) {
          const service = String(attributes(resourceSpans.resource.attributes)['service.name']);
          for (const scope of resourceSpans.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                service,
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                parentSpanId: hex(span.parentSpanId),
                name: span.name,
                kind: span.kind,
                attributes: attributes(span.attributes),
                links: (span.links ?? []).map((link) => ({
                  traceId: hex(link.traceId),
                  spanId: hex(link.spanId),
                })),
              });
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, server };
}

async function eventually<T>(find: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not received in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Both services as `pnpm start` runs them, with tracing on through the standard OTEL_* variables
 * (docs/operations.md, Tracing): a caller's W3C traceparent is honoured, Redis and Postgres calls
 * are child spans, and management's customer-seen consumer links to the replacement request.
 */
describeRunnable('tracing with the OTEL_* variables set', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stack: TracklineStack;

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startTracklineStack({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Export within a fifth of a second instead of five, so the test waits little.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('continues the caller trace in replacement, with Redis spans, and links the consumer span in management to it', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const answer = await stack.replaceNumbers({
      parameters: { custnr: `traced-${traceId.slice(0, 8)}` },
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(answer.status).toBe(200);

    const server = await eventually(
      () =>
        receiver.spans.find(
          (span) => span.service === 'trackline-replacement' && span.traceId === traceId && span.kind === 2,
        ),
      'the replacement server span',
    );
    expect(server.parentSpanId).toBe(callerSpanId);
    await eventually(
      () =>
        receiver.spans.find((span) => span.traceId === traceId && span.attributes['db.system'] === 'redis') ??
        receiver.spans.find(
          (span) => span.traceId === traceId && span.attributes['db.system.name'] === 'redis',
        ),
      'a Redis span of the replacement request',
    );
    const consumer = await eventually(
      () =>
        receiver.spans.find(
          (span) =>
            span.service === 'trackline-management' &&
            span.name === 'customer-seen process' &&
            span.links.some((link) => link.traceId === traceId),
        ),
      "management's customer-seen span linked to the replacement request",
    );
    const link = consumer.links.find((candidate) => candidate.traceId === traceId)!;
    const replacementSpans = receiver.spans.filter((span) => span.traceId === traceId);
    expect(replacementSpans.map((span) => span.spanId)).toContain(link.spanId);
    // The consumer's Postgres work is its child.
    await eventually(
      () =>
        receiver.spans.find(
          (span) => span.traceId === consumer.traceId && span.parentSpanId === consumer.spanId,
        ),
      "a child span of the consumer's span (its Postgres transaction)",
    );
  });

  it('continues the caller trace in management, with Postgres spans', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const answer = await stack.postCallRecord(POOL_NUMBER, {
      traceparent: `00-${traceId}-${callerSpanId}-01`,
    });
    expect(answer.status).toBe(201);
    const server = await eventually(
      () =>
        receiver.spans.find(
          (span) => span.service === 'trackline-management' && span.traceId === traceId && span.kind === 2,
        ),
      'the management server span',
    );
    expect(server.parentSpanId).toBe(callerSpanId);
    await eventually(
      () =>
        receiver.spans.find(
          (span) =>
            span.traceId === traceId &&
            (span.attributes['db.system'] === 'postgresql' ||
              span.attributes['db.system.name'] === 'postgresql'),
        ),
      'a Postgres span of the call record',
    );
  });
});
