import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * The SDK with traces only: the exporter, its endpoint and protocol, the sampler and the batch
 * settings come from the standard `OTEL_*` variables, which the SDK reads itself; W3C
 * `traceparent` (with baggage) is its default propagation. Metrics stay Prometheus's
 * (docs/operations.md, Metrics) and logs stay pino's, so neither gets an OTLP exporter here.
 */
export function startTracing(serviceName: string | undefined): { shutdown(): Promise<void> } {
  const sdk = new NodeSDK({
    serviceName,
    instrumentations: [
      new HttpInstrumentation(),
      // A span per query, without its parameters (they hold phone numbers and e-mail addresses).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      // The command name and key only: values are customers' data.
      new IORedisInstrumentation({
        dbStatementSerializer: (command, args) => `${command} ${String(args[0] ?? '')}`,
      }),
    ],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}
