import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@trackline/platform';
import type { OutboxBell, OutboxName } from '../db/outbox-bell';

/** From the service's main thread to the delivery thread. */
export type ToDeliveryThread = { type: 'ring'; outboxes: OutboxName[] } | { type: 'stop' };

/** From the delivery thread to the main thread. */
export type FromDeliveryThread =
  { type: 'ready' } | { type: 'failed'; message: string } | { type: 'stopped' };

const EXIT_GRACE_MS = 5_000;
const OUTBOXES: readonly OutboxName[] = ['webhooks', 'notifications', 'conversions'];

export interface DeliveryThreadOptions {
  /** Rung by the app's call ingestion; each ring is passed on to the thread. */
  bell: OutboxBell;
  logger: Logger;
  /** The environment the thread reads its configuration from, as the process read its own. */
  env: NodeJS.ProcessEnv;
  /** The thread ended without being asked to (an uncaught error in it): the process decides what follows. */
  onCrash: (error: Error) => void;
  /** The compiled thread entry; the one beside this file unless a test names another. */
  script?: string;
}

export interface RunningDeliveryThread {
  /** Asks the thread to finish the deliveries in flight and close its pools; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the outbox deliveries (webhooks, notifications, conversions) on a thread of their own, so
 * the event loop that answers requests never waits behind a round of deliveries
 * (docs/architecture.md, Background work). Resolves once the thread delivers; rejects with the
 * thread's reason when it cannot start (the database unreachable, say).
 */
export function startDeliveryThread(options: DeliveryThreadOptions): Promise<RunningDeliveryThread> {
  const thread = new Worker(options.script ?? join(__dirname, 'delivery-thread.js'), { env: options.env });
  let stopping = false;
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  const send = (message: ToDeliveryThread) => thread.postMessage(message);

  // Rings within one turn of the event loop travel as one message.
  const pending = new Set<OutboxName>();
  const flush = () => {
    send({ type: 'ring', outboxes: [...pending] });
    pending.clear();
  };
  const unlisten = OUTBOXES.map((outbox) =>
    options.bell.listen(outbox, () => {
      if (pending.size === 0) queueMicrotask(flush);
      pending.add(outbox);
    }),
  );
  const stopListening = () => unlisten.forEach((stop) => stop());

  return new Promise((resolve, reject) => {
    let started = false;
    let lastError: Error | undefined;
    let deadline: NodeJS.Timeout | undefined;
    thread.on('error', (error) => {
      lastError = error;
      options.logger.error({ err: error }, 'delivery thread failed');
    });
    thread.on('message', (message: FromDeliveryThread) => {
      if (message.type === 'ready') {
        started = true;
        resolve({
          stop: async () => {
            stopping = true;
            stopListening();
            send({ type: 'stop' });
            await exited;
            clearTimeout(deadline);
          },
        });
      } else if (message.type === 'stopped') {
        // Its loops and pools are closed; a handle left open somewhere must not hold shutdown.
        deadline = setTimeout(() => void thread.terminate(), EXIT_GRACE_MS);
      } else if (message.type === 'failed') {
        lastError = new Error(message.message);
      }
    });
    void exited.then(() => {
      if (stopping) return;
      stopListening();
      if (!started) reject(lastError ?? new Error('delivery thread exited before it started'));
      else options.onCrash(lastError ?? new Error('delivery thread exited unexpectedly'));
    });
  });
}
