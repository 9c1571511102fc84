import { Ga4Simulator } from '@trackline/test-harness';
import { startSmtpReceiver } from '../src/test-support/notification-receivers';
import { startWebhookReceiver } from '../src/test-support/webhook-receiver';
import { RECEIVERS_STREAM, type ReceiversReady, type ReceiversRequest } from './bench-receivers';

/**
 * The partner's receivers in a process of their own (bench-receivers.ts forks it): taking the
 * service's deliveries costs CPU, and in the bench's own process it would hold up the event loop
 * that times the calls.
 */
async function main(): Promise<void> {
  const webhooks = await startWebhookReceiver();
  const smtp = await startSmtpReceiver();
  const ga4 = new Ga4Simulator([RECEIVERS_STREAM]);
  await ga4.start();
  process.on('message', (request: ReceiversRequest) => {
    if (request === 'received')
      process.send!({
        webhooks: webhooks.received.length,
        mails: smtp.messages.length,
        ga4Hits: ga4.hits.length,
      });
    else void Promise.all([webhooks.close(), smtp.close(), ga4.stop()]).finally(() => process.disconnect());
  });
  const ready: ReceiversReady = { webhooksUrl: webhooks.url, smtpUrl: smtp.url, ga4Url: ga4.baseUrl };
  process.send!(ready);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench receivers failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
