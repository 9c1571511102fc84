import { createServer, request } from 'node:http';
import pino from 'pino';
import { FixedCounter, FixedHistogram } from './fixed-metrics';
import { listen } from './http-lifecycle';
import { createMetricsRegistry, Gauge, metricsHandler, Registry } from './metrics-registry';

function get(port: number): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/metrics' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('FixedCounter and FixedHistogram', () => {
  it('render as Prometheus counters and a cumulative histogram, every label value from 0', async () => {
    const registry = new Registry();
    const counter = new FixedCounter(registry, {
      name: 'test_requests_total',
      help: 'Requests.',
      label: 'outcome',
      values: ['success', '400'],
    });
    const histogram = new FixedHistogram(registry, {
      name: 'test_seconds',
      help: 'Time.',
      buckets: [0.001, 0.01],
    });
    counter.inc(counter.indexOf('success'));
    counter.inc(counter.indexOf('success'));
    histogram.observe(0.0005);
    histogram.observe(0.005);
    histogram.observe(0.5);

    const text = await registry.metrics();
    expect(text).toContain('# TYPE test_requests_total counter');
    expect(text).toContain('test_requests_total{outcome="success"} 2');
    expect(text).toContain('test_requests_total{outcome="400"} 0');
    expect(text).toContain('# TYPE test_seconds histogram');
    expect(text).toContain('test_seconds_bucket{le="0.001"} 1');
    expect(text).toContain('test_seconds_bucket{le="0.01"} 2');
    expect(text).toContain('test_seconds_bucket{le="+Inf"} 3');
    expect(text).toContain('test_seconds_sum 0.5055');
    expect(text).toContain('test_seconds_count 3');
    expect(counter.current('success')).toBe(2);
    expect(() => counter.indexOf('nope' as 'success')).toThrow(/unknown outcome nope/);
  });

  it('refuses buckets that do not ascend', () => {
    expect(
      () => new FixedHistogram(new Registry(), { name: 'x_seconds', help: 'x', buckets: [0.1, 0.1] }),
    ).toThrow(/ascend/);
  });
});

describe('metricsHandler', () => {
  it('answers the registry in the Prometheus text format, with the default process metrics', async () => {
    const registry = createMetricsRegistry();
    const server = createServer(metricsHandler(registry, pino({ level: 'silent' })));
    const port = await listen(server, 0, '127.0.0.1');
    try {
      const answer = await get(port);
      expect(answer.status).toBe(200);
      expect(answer.type).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(answer.body).toMatch(/^# HELP process_cpu_user_seconds_total /m);
      expect(answer.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    } finally {
      server.close();
    }
  });

  it('answers 500 when a metric cannot be collected', async () => {
    const registry = new Registry();
    // A gauge whose collect fails, as a store read on scrape can.
    new Gauge({
      name: 'failing',
      help: 'x',
      registers: [registry],
      collect: () => Promise.reject(new Error('store down')),
    });
    const server = createServer(metricsHandler(registry, pino({ level: 'silent' })));
    const port = await listen(server, 0, '127.0.0.1');
    try {
      const answer = await get(port);
      expect(answer.status).toBe(500);
      expect(answer.body).toBe('metrics collection failed\n');
    } finally {
      server.close();
    }
  });
});
