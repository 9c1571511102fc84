import { parentPort, type MessagePort } from 'node:worker_threads';
import { createLogger } from '@trackline/platform';
import { loadManagementConfig } from '../config/management-config';
import { OutboxBell } from '../db/outbox-bell';
import type { FromDeliveryThread, ToDeliveryThread } from './delivery-thread-host';
import { startOutboxDeliveries, type RunningOutboxDeliveries } from './outbox-deliveries';

// Entry of the service's delivery thread, started by composition/delivery-thread-host.ts: the
// outbox loops on an event loop of their own, configured from the same environment as the process,
// rung by the main thread's call ingestion.

async function run(port: MessagePort): Promise<void> {
  const tell = (message: FromDeliveryThread) => port.postMessage(message);
  const config = loadManagementConfig(process.env);
  const logger = createLogger({ service: 'management', level: config.logLevel }).child({
    thread: 'deliveries',
  });
  const bell = new OutboxBell();
  let deliveries: RunningOutboxDeliveries;
  try {
    deliveries = await startOutboxDeliveries(config, logger, bell);
  } catch (error) {
    tell({ type: 'failed', message: (error as Error).message });
    port.close();
    return;
  }
  port.on('message', (message: ToDeliveryThread) => {
    if (message.type === 'ring') bell.ring(message.outboxes);
    else
      void deliveries
        .stop()
        .catch((error: unknown) => logger.error({ err: error }, 'delivery thread did not stop cleanly'))
        .finally(() => {
          tell({ type: 'stopped' });
          port.close();
        });
  });
  tell({ type: 'ready' });
}

if (parentPort === null)
  throw new Error('delivery-thread.js runs as a worker thread (composition/delivery-thread-host.ts)');
void run(parentPort);
