import { Ga4Simulator } from '@trackline/test-harness';
import { startSmtpReceiver } from '../test-support/notification-receivers';
import { startWebhookReceiver } from '../test-support/webhook-receiver';
import type { BenchFeatures } from './bench-fixtures';

const STREAM = { measurementId: 'G-BENCH1', apiSecret: 'bench-ga4-api-secret' };

/** The partner's receivers the service delivers to while the bench runs: webhooks, e-mail and GA4. */
export interface FeatureReceivers {
  features: BenchFeatures;
  /** The service's environment that points it at them. */
  serviceEnv: Record<string, string>;
  received(): { webhooks: number; mails: number; ga4Hits: number };
  close(): Promise<void>;
}

export async function startFeatureReceivers(): Promise<FeatureReceivers> {
  const webhooks = await startWebhookReceiver();
  const smtp = await startSmtpReceiver();
  const ga4 = new Ga4Simulator([STREAM]);
  await ga4.start();
  return {
    features: { webhookUrl: `${webhooks.url}/bench-hooks`, ga4: STREAM },
    serviceEnv: {
      WEBHOOK_INSECURE_HOSTS: new URL(webhooks.url).hostname,
      SMTP_URL: smtp.url,
      CONVERSIONS_GA4_URL: ga4.baseUrl,
    },
    received: () => ({
      webhooks: webhooks.received.length,
      mails: smtp.messages.length,
      ga4Hits: ga4.hits.length,
    }),
    close: async () => {
      await Promise.all([webhooks.close(), smtp.close(), ga4.stop()]);
    },
  };
}
