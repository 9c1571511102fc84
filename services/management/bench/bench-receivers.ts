import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { BenchFeatures } from './bench-fixtures';

export const RECEIVERS_STREAM = { measurementId: 'G-BENCH1', apiSecret: 'bench-ga4-api-secret' };

/** What the receivers' process says once it listens. */
export interface ReceiversReady {
  webhooksUrl: string;
  smtpUrl: string;
  ga4Url: string;
}

export type ReceiversRequest = 'received' | 'close';

export interface DeliveriesReceived {
  webhooks: number;
  mails: number;
  ga4Hits: number;
}

/** The partner's receivers the service delivers to while the bench runs: webhooks, e-mail and GA4. */
export interface FeatureReceivers {
  /** Their process, whose CPU the single calls count with the bench's own. */
  pid: number;
  features: BenchFeatures;
  /** The service's environment that points it at them. */
  serviceEnv: Record<string, string>;
  received(): Promise<DeliveriesReceived>;
  close(): Promise<void>;
}

/** The receivers run in a child process (bench-receivers-process.ts), off the timing client's event loop. */
export async function startFeatureReceivers(): Promise<FeatureReceivers> {
  const child = fork(join(__dirname, 'bench-receivers-process.js'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const [ready] = (await Promise.race([
    once(child, 'message'),
    exited.then(([code]) => Promise.reject(new Error(`bench receivers exited with ${String(code)}`))),
  ])) as [ReceiversReady];
  return {
    pid: child.pid!,
    features: { webhookUrl: `${ready.webhooksUrl}/bench-hooks`, ga4: RECEIVERS_STREAM },
    serviceEnv: {
      WEBHOOK_INSECURE_HOSTS: new URL(ready.webhooksUrl).hostname,
      SMTP_URL: ready.smtpUrl,
      CONVERSIONS_GA4_URL: ready.ga4Url,
    },
    received: async () => {
      const answer = once(child, 'message');
      child.send('received' satisfies ReceiversRequest);
      const [counts] = (await answer) as [DeliveriesReceived];
      return counts;
    },
    close: async () => {
      if (child.connected) child.send('close' satisfies ReceiversRequest);
      await exited;
    },
  };
}
