import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from './management-data-source';
import { OutboxBell } from '../db/outbox-bell';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { startSmsGateway } from '../test-support/notification-receivers';
import { startDeliveryThread } from './delivery-thread-host';

// A worker thread runs compiled JavaScript: the thread entry is taken from the build
// (`pnpm test` builds first), the host under test from the sources.
const BUILT_THREAD = resolve(__dirname, '../../dist/composition/delivery-thread.js');
const silent = pino({ level: 'silent' });

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(20);
  }
  return condition();
}

describe('the delivery thread', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('delivers what the main thread rings for at once, not at its next poll, and stops when asked', async () => {
    const gateway = await startSmsGateway();
    const bell = new OutboxBell();
    const crashes: Error[] = [];
    const running = await startDeliveryThread({
      bell,
      logger: silent,
      env: {
        DATABASE_URL: database.url,
        SMS_GATEWAY_URL: gateway.url,
        NOTIFY_POLL_MS: '60000',
        LOG_LEVEL: 'silent',
      },
      onCrash: (error) => crashes.push(error),
      script: BUILT_THREAD,
    });
    try {
      // The thread's first rounds found nothing; its next poll is a minute away.
      await sleep(300);
      await new TypeormOutboxStore(dataSource.manager).enqueue(dataSource.manager, [
        { channel: 'sms', kind: 'missed_call', recipient: '+4790000077', text: 'Missed call', cdrId: '7' },
      ]);
      await sleep(500);
      expect(gateway.requests).toHaveLength(0);

      bell.ring(['notifications', 'conversions']);
      expect(await until(() => gateway.requests.length === 1, 5_000)).toBe(true);
      expect(gateway.requests[0]!.body.to).toBe('+4790000077');
      expect(await until(async () => (await statusOf(dataSource)) === 'sent', 5_000)).toBe(true);
    } finally {
      await running.stop();
      await gateway.close();
    }
    expect(crashes).toEqual([]);
    // Stopped means its pools are closed too: no connection of the notification or conversion pool is left.
    const left: Array<{ n: number }> = await dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'trackline-management-%'`,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('refuses to start, with the reason, when its database cannot be reached', async () => {
    await expect(
      startDeliveryThread({
        bell: new OutboxBell(),
        logger: silent,
        env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', LOG_LEVEL: 'silent' },
        onCrash: () => undefined,
        script: BUILT_THREAD,
      }),
    ).rejects.toThrow(/ECONNREFUSED|connect/);
  });

  it('passes rings on as one message per turn, and reports a thread that ends on its own error', async () => {
    // A stand-in thread: ready at once, fails on the second ring it is sent, leaves when told to stop.
    const script = join(mkdtempSync(join(tmpdir(), 'delivery-thread-')), 'failing-thread.js');
    writeFileSync(
      script,
      `const { parentPort } = require('node:worker_threads');
       let rings = 0;
       parentPort.on('message', (message) => {
         if (message.type === 'stop') return parentPort.close();
         rings += 1;
         if (rings === 2) throw new Error('thread failed on ring ' + message.outboxes.join(','));
       });
       parentPort.postMessage({ type: 'ready' });`,
    );
    const bell = new OutboxBell();
    let crashed: (error: Error) => void = () => undefined;
    const crash = new Promise<Error>((resolve) => (crashed = resolve));
    const running = await startDeliveryThread({
      bell,
      logger: silent,
      env: {},
      onCrash: (error) => crashed(error),
      script,
    });
    const outcome = await (async () => {
      // Three rings in one turn are one message: the thread counts them as its first ring.
      bell.ring(['webhooks']);
      bell.ring(['notifications']);
      bell.ring(['webhooks', 'conversions']);
      await sleep(100);
      bell.ring(['conversions']);
      return Promise.race([crash, sleep(5_000).then(() => null)]);
    })();
    if (outcome === null) await running.stop();
    expect(outcome?.message).toBe('thread failed on ring conversions');
  });
});

async function statusOf(dataSource: DataSource): Promise<string | undefined> {
  const rows: Array<{ status: string }> = await dataSource.query('SELECT status FROM notification_outbox');
  return rows[0]?.status;
}
