import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../db/data-source';
import { runCli } from './run-cli';

type Row = Record<string, unknown>;
const CALLER = '+4791234567';
const OTHER = '+4798765432';

// The operator's side of docs/privacy.md: partner settings, partitions and erasure, as printed and stored.
describe('data lifecycle commands', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let client: Redis;
  const redis: TestRedis = createTestRedis();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url);
    await dataSource.initialize();
    client = new Redis(redis.url);
  });

  afterAll(async () => {
    await client.quit();
    await dataSource.destroy();
    await database.drop();
    await redis.cleanup();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  it('sets retention and masking on partner:create and partner:update, and refuses bad values', async () => {
    const created = await cli(
      'partner:create',
      '--name',
      'acme',
      '--username',
      'acme-api',
      '--password',
      'long-enough',
      '--signing-secret',
      'a-signing-secret-of-some-length',
      '--cdr-retention-months',
      '6',
    );
    expect(created.code).toBe(0);
    expect(created.out).toEqual(
      expect.arrayContaining(['  cdr retention:   6 months', '  mask anum after: off']),
    );
    const updated = await cli('partner:update', '--name', 'acme', '--anum-mask-after-days', '30');
    expect(updated.out[0]).toBe('Updated partner acme: anum-mask-after-days');
    expect(
      await dataSource.query(
        `SELECT cdr_retention_months, anum_mask_after_days FROM partners WHERE name = 'acme'`,
      ),
    ).toEqual([{ cdr_retention_months: 6, anum_mask_after_days: 30 }]);

    expect(await cli('partner:update', '--name', 'acme', '--cdr-retention-months', '0')).toEqual({
      code: 1,
      out: [],
      err: ['error: cdr-retention-months: must be a whole number from 1 to 1200'],
    });
    expect((await cli('partner:update', '--name', 'acme', '--anum-mask-after-days', '3.5')).err).toEqual([
      'error: anum-mask-after-days: must be a whole number from 1 to 36500',
    ]);
    expect((await cli('partner:update', '--name', 'acme', '--anum-mask-after-days', 'off')).code).toBe(0);
    expect(await dataSource.query(`SELECT anum_mask_after_days FROM partners WHERE name = 'acme'`)).toEqual([
      { anum_mask_after_days: null },
    ]);
  });

  it('creates the months ahead with cdrs:partitions, idempotently', async () => {
    const first = await cli('cdrs:partitions', '--months-ahead', '5');
    expect(first.code).toBe(0);
    const ahead = new Date();
    ahead.setUTCDate(1);
    ahead.setUTCMonth(ahead.getUTCMonth() + 5);
    const name = `cdrs_${ahead.toISOString().slice(0, 7).replace('-', '_')}`;
    expect(first.out).toContain(`Created partition ${name}`);
    expect(first.out).toContain('cdrs_default is empty');
    expect((await cli('cdrs:partitions', '--months-ahead', '5')).out).toEqual([
      'Every month up to then has its partition',
      'cdrs_default is empty',
    ]);
    expect((await cli('cdrs:partitions', '--months-ahead', '99')).err).toEqual([
      'error: months-ahead: must be a whole number from 0 to 24',
    ]);
  });

  it("erases a caller's number from records, recordings, notifications and attributions, once", async () => {
    const [{ id: partnerId }] = await dataSource.query(
      `SELECT id::text AS id FROM partners WHERE name = 'acme'`,
    );
    const record = async (callId: string, anum: string, recording: boolean, commission: string | null) => {
      const [{ id }] = await dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined,
           commission, recording, timestamp)
         VALUES ($1, $2, now() - interval '1 day', 40, $3, '+4722000001', true, $4, false, $5, $6, now())
         RETURNING id::text AS id`,
        [callId, partnerId, anum, recording, commission, recording ? Buffer.from('RIFF') : null],
      );
      return id as string;
    };
    const voicemail = await record('call-1', CALLER, true, '25.00');
    await record('call-2', CALLER, false, null);
    const other = await record('call-3', OTHER, true, '25.00');
    await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload, attachment_cdr_id)
       VALUES ('email', 'new_voicemail', 'kari@example.com', $1,
               '{"subject":"New voicemail from +4791234567","text":"New voicemail from +4791234567 to +4722000001",
                 "attachment":{"filename":"voicemail.wav","contentType":"audio/wav"}}', $1),
              ('sms', 'missed_call', '+4790000000', $2, '{"text":"Missed call from +4798765432"}', NULL)`,
      [voicemail, other],
    );
    const keys = partnerKeys(redis.keyPrefix, 'acme');
    await client.set(keys.call('call-1'), attribution('call-1', CALLER));
    await client.set(keys.call('call-not-recorded-yet'), attribution('call-not-recorded-yet', CALLER));
    await client.set(keys.call('call-3'), attribution('call-3', OTHER));

    const erased = await cli('privacy:erase', '--partner', 'acme', '--caller', '91 23 45 67');
    expect(erased).toEqual({
      code: 0,
      out: [
        `Erased caller ${CALLER} for partner acme:`,
        '  call records masked:          2',
        '  recordings deleted:           1',
        '  notifications redacted:       1',
        '  call attributions deleted:    2',
      ],
      err: [],
    });
    expect(
      await dataSource.query(
        `SELECT call_id, anum, recording IS NOT NULL AS recording, commission::text FROM cdrs ORDER BY call_id`,
      ),
    ).toEqual([
      { call_id: 'call-1', anum: '+479xxxxxxx', recording: false, commission: '25.00' },
      { call_id: 'call-2', anum: '+479xxxxxxx', recording: false, commission: null },
      { call_id: 'call-3', anum: OTHER, recording: true, commission: '25.00' },
    ]);
    const payloads: Row[] = await dataSource.query(
      `SELECT payload, attachment_cdr_id FROM notification_outbox ORDER BY id`,
    );
    expect(payloads.map((row) => row.attachment_cdr_id)).toEqual([null, null]);
    expect(payloads.map((row) => row.payload)).toEqual([
      { subject: 'New voicemail from +479xxxxxxx', text: 'New voicemail from +479xxxxxxx to +4722000001' },
      { text: `Missed call from ${OTHER}` },
    ]);
    expect(await client.exists(keys.call('call-1'), keys.call('call-not-recorded-yet'))).toBe(0);
    expect(await client.exists(keys.call('call-3'))).toBe(1);

    const again = await cli('privacy:erase', '--partner', 'acme', '--caller', CALLER);
    expect(again.out.slice(1)).toEqual([
      '  call records masked:          0',
      '  recordings deleted:           0',
      '  notifications redacted:       0',
      '  call attributions deleted:    0',
    ]);

    expect((await cli('privacy:erase', '--partner', 'nobody', '--caller', CALLER)).err).toEqual([
      'error: partner nobody not found',
    ]);
    expect((await cli('privacy:erase', '--partner', 'acme', '--caller', 'anonymous')).err).toEqual([
      'error: caller: must be a phone number',
    ]);
  });
});

function attribution(callId: string, anum: string): string {
  const value: CallAttribution = {
    callId,
    advId: 'acme',
    anum,
    bnum: '+4722000001',
    at: new Date().toISOString(),
    action: 'dial',
    target: '+4722999999',
    sourceId: null,
    customerId: null,
    vmGreetingId: null,
    sessionId: 'session-1',
    trackingId: null,
    fullUrl: null,
    fullReferrer: null,
    custnr: null,
    parameters: null,
    quarantined: false,
    kind: 'session',
    boundAt: null,
  };
  return encodeCallAttribution(value);
}
