import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { loadManagementConfig } from '../config/management-config';
import { createManagementDataSource } from './management-data-source';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { startNotificationWorker } from './start-notification-worker';
import { startSmsGateway } from '../test-support/notification-receivers';

describe('startNotificationWorker', () => {
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

  it('sends over the configured gateway, logs what has no channel, and stops cleanly', async () => {
    const gateway = await startSmsGateway();
    const logLines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const config = loadManagementConfig({
      DATABASE_URL: database.url,
      SMS_GATEWAY_URL: gateway.url,
      NOTIFY_POLL_MS: '10',
    });
    const running = await startNotificationWorker({ config, logger });
    try {
      await new TypeormOutboxStore(dataSource.manager).enqueue(dataSource.manager, [
        { channel: 'sms', kind: 'missed_call', recipient: '+4790000099', text: 'Missed call', cdrId: '1' },
        {
          channel: 'email',
          kind: 'missed_call',
          recipient: 'a@example.com',
          subject: 'Missed',
          text: 'm',
          cdrId: '1',
        },
      ]);
      const deadline = Date.now() + 10_000;
      let statuses: string[] = [];
      while (Date.now() < deadline) {
        const rows: Array<{ status: string }> = await dataSource.query(
          'SELECT status FROM notification_outbox ORDER BY id',
        );
        statuses = rows.map((row) => row.status);
        if (statuses.every((status) => status === 'sent' || status === 'logged')) break;
        await sleep(20);
      }
      expect(statuses).toEqual(['sent', 'logged']);
      expect(gateway.requests.map((request) => request.body.to)).toEqual(['+4790000099']);
      expect(logLines.some((line) => line.includes('SMTP_URL'))).toBe(true);
    } finally {
      await running.stop();
      await gateway.close();
    }
  });
});
