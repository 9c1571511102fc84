import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

export interface ScrapeTarget {
  job: string;
  address: string;
  scheme: 'http' | 'https';
}

/** A Prometheus of a test's own: loopback, a free port, a temporary TSDB; nothing else depends on it. */
export interface PrometheusServer {
  readonly url: string;
  /** GET /api/v1/<path>; throws unless Prometheus answers `status: success`. */
  api<T>(apiPath: string, params?: Record<string, string>): Promise<T>;
  output(): string;
  stop(): Promise<void>;
}

export interface PrometheusOptions {
  port: number;
  targets: ScrapeTarget[];
  ruleFiles: string[];
  /** Seconds between scrapes and between rule evaluations: short, so a test sees results quickly. */
  intervalSeconds: number;
}

export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'trackline-prometheus-'));
  const interval = `${options.intervalSeconds}s`;
  const config = {
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    rule_files: options.ruleFiles,
    scrape_configs: options.targets.map((target) => ({
      job_name: target.job,
      scheme: target.scheme,
      // Management's development certificate is self-signed, as docs/operations.md's example allows.
      ...(target.scheme === 'https' ? { tls_config: { insecure_skip_verify: true } } : {}),
      static_configs: [{ targets: [target.address] }],
    })),
  };
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, stringify(config));
  const listen = `127.0.0.1:${options.port}`;
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=${listen}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://${listen}`;

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => (await fetch(`${url}/-/ready`)).ok,
      20_000,
      () => `Prometheus not ready:\n${text}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    output: () => text,
    stop,
    api: async <T>(apiPath: string, params: Record<string, string> = {}): Promise<T> => {
      const query = new URLSearchParams(params).toString();
      const response = await fetch(`${url}/api/v1/${apiPath}${query === '' ? '' : `?${query}`}`);
      const body = (await response.json()) as { status: string; data: T; error?: string };
      if (body.status !== 'success')
        throw new Error(`Prometheus ${apiPath}: ${body.error ?? response.status}`);
      return body.data;
    },
  };
}

/** Polls until check() is true; rejects with describe()'s text after timeoutMs. Errors count as not yet. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
