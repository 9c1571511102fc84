/**
 * Tracing (docs/operations.md, Tracing): OpenTelemetry's Node SDK with the http, pg and ioredis
 * instrumentations, on when the standard `OTEL_*` variables configure a trace exporter
 * (docs/configuration.md, Tracing). A service's entry imports its tracing file first, before any
 * module the instrumentations patch is loaded. When tracing is off, this file is all that loads:
 * the SDK is required only inside `startTracingIfConfigured`, so an untraced process pays nothing.
 */

/** Whether the environment asks for traces: an exporter named, or an OTLP endpoint given. */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return exporters.some((name) => name !== 'none');
  return isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT) || isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

let running: { shutdown(): Promise<void> } | undefined;

/**
 * Starts the SDK when the environment asks for traces; `serviceName` names the service unless
 * `OTEL_SERVICE_NAME` does. True when started.
 */
export function startTracingIfConfigured(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (running !== undefined || !tracingConfigured(env)) return running !== undefined;
  // Required here, not imported at the top: an untraced process never loads the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracing } = require('./start-tracing') as typeof import('./start-tracing');
  running = startTracing(isSet(env.OTEL_SERVICE_NAME) ? undefined : serviceName);
  return true;
}

/** Exports the spans still buffered and stops tracing; nothing to do when it is off. */
export async function stopTracing(): Promise<void> {
  const sdk = running;
  running = undefined;
  await sdk?.shutdown();
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}
