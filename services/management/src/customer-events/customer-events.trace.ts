import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Link,
} from '@opentelemetry/api';

/**
 * Runs one stream batch's work in a consumer span linked to the replacement requests whose
 * `traceparent` the entries carry (docs/operations.md, Tracing): a batch mixes many requests, so
 * they are links, not parents. The work's Postgres queries are the span's children. Untraced (no
 * SDK loaded), the API's tracer and propagator are no-ops.
 */
export async function inConsumerSpan<T>(
  stream: string,
  entries: ReadonlyArray<readonly string[]>,
  work: () => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer('trackline-management');
  const links = entries.flatMap(linkOf);
  return tracer.startActiveSpan(
    'customer-seen process',
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: {
        'messaging.system': 'redis',
        'messaging.operation.type': 'process',
        'messaging.destination.name': stream,
        'messaging.batch.message_count': entries.length,
      },
    },
    context.active(),
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function linkOf(fields: readonly string[]): Link[] {
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] !== 'traceparent') continue;
    const spanContext = trace.getSpanContext(
      propagation.extract(ROOT_CONTEXT, { traceparent: fields[i + 1] }),
    );
    return spanContext === undefined ? [] : [{ context: spanContext }];
  }
  return [];
}
