import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tracingConfigured } from './index';

describe('tracingConfigured', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: ' ', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_SERVICE_NAME: 'x' }, false],
  ])('%j → %s', (env, on) => {
    expect(tracingConfigured(env)).toBe(on);
  });
});

const built = path.join(__dirname, '..', 'dist', 'index.js');

// Zero cost when off: the built module, as a service's main.ts loads it, pulls in no OpenTelemetry code.
(existsSync(built) ? it : it.skip)('loads no OpenTelemetry module when tracing is off', () => {
  const script = `
    require(${JSON.stringify(built)}).startTracingIfConfigured('trackline-test', {});
    process.stdout.write(String(Object.keys(require.cache).filter((file) => file.includes('@opentelemetry')).length));
  `;
  expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: {} })).toBe('0');
});
