import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
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
    dataSource = createManagementDataSource(database.url);
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

  // Records stored before every edge read callers one way hold them as the switch sent them: each
  // spelling is found, in every place the number is kept (docs/privacy.md, Erasure of one caller).
  it('erases a caller in any spelling from records, recordings, notifications, webhook deliveries, attributions and provider calls, once', async () => {
    const [{ id: partnerId }] = await dataSource.query(
      `SELECT id::text AS id FROM partners WHERE name = 'acme'`,
    );
    expect((await cli('numbers:add', '--partner', 'acme', '--kind', 'static', '+4722000001')).code).toBe(0);
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
    await record('call-2', '91234567', false, null);
    const missed = await record('call-4', '004791234567', false, null);
    await record('call-5', '4791234567', true, null);
    const other = await record('call-3', OTHER, true, '25.00');
    // Another caller's call whose cnum is the erased number: the number goes, their recording stays.
    await dataSource.query(`UPDATE cdrs SET cnum = $1 WHERE id = $2`, [CALLER, other]);
    await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload, attachment_cdr_id)
       VALUES ('email', 'new_voicemail', 'kari@example.com', $1,
               '{"subject":"New voicemail from +4791234567","text":"New voicemail from +4791234567 to +4722000001",
                 "attachment":{"filename":"voicemail.wav","contentType":"audio/wav"}}', $1),
              ('sms', 'missed_call', '+4790000000', $3, '{"text":"Missed call from 004791234567 (91 23 45 67)"}', NULL),
              ('sms', 'missed_call', '+4790000000', $2, '{"text":"Missed call from +4798765432"}', NULL)`,
      [voicemail, other, missed],
    );
    // A receiver that refused a body quoted it; its answer is kept in last_error and listed to the partner.
    const [{ id: webhookId }] = await dataSource.query(
      `INSERT INTO webhooks (partner_id, url, events, secret)
       VALUES ($1, 'https://hooks.example.com/calls', '{call.missed}', 'whsec_test') RETURNING id::text AS id`,
      [partnerId],
    );
    await dataSource.query(
      `INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, cdr_id, status, last_error)
       VALUES ('msg_missed', $1, $2, 'call.missed', $3, 'pending',
               'receiver answered 422: {"error":"unknown anum 004791234567","data":{"anum":"+4791234567"}}'),
              ('msg_voicemail', $1, $2, 'voicemail.new', $4, 'sent', NULL),
              ('msg_other', $1, $2, 'call.completed', $5, 'dead', 'receiver answered 400: anum +4798765432')`,
      [webhookId, partnerId, missed, voicemail, other],
    );
    const keys = partnerKeys(redis.keyPrefix, 'acme');
    await client.set(keys.call('call-1'), attribution('call-1', CALLER));
    await client.set(keys.call('call-not-recorded-yet'), attribution('call-not-recorded-yet', '91234567'));
    await client.set(keys.call('call-older'), attribution('call-older', '004791234567'));
    await client.set(keys.call('call-3'), attribution('call-3', OTHER));
    await dataSource.query(
      `INSERT INTO twilio_calls (call_sid, to_number, from_number, first_callback, last_callback)
       VALUES ('CA-in-progress', '+4722000001', '+4791234567', now(), now()),
              ('CA-other-caller', '+4722000001', '+4798765432', now(), now()),
              ('CA-other-partner', '+4723999999', '+4791234567', now(), now())`,
    );

    // What the caller said on their voicemail goes with it; the other caller's transcript stays
    // (docs/privacy.md, Erasure of one caller).
    await dataSource.query(
      `INSERT INTO transcripts (cdr_id, partner_id, cdr_start, status, text)
       SELECT id, partner_id, start, 'done', 'Is the car still available?' FROM cdrs WHERE id IN ($1, $2)`,
      [voicemail, other],
    );
    await dataSource.query(
      `INSERT INTO transcription_jobs (partner_id, cdr_id, cdr_start, recording)
       SELECT partner_id, id, start, 'voicemail' FROM cdrs WHERE id IN ($1, $2)`,
      [voicemail, other],
    );

    const erased = await cli('privacy:erase', '--partner', 'acme', '--caller', '91 23 45 67');
    expect(erased).toEqual({
      code: 0,
      out: [
        `Erased caller ${CALLER} for partner acme:`,
        '  call records masked:          4',
        '  cnum masked in records:       1',
        '  recordings deleted:           2',
        '  transcripts deleted:          1',
        '  notifications redacted:       2',
        '  webhook deliveries redacted:  1',
        '  call attributions deleted:    3',
        '  provider calls masked:        1',
        '  spam list and history erased: 0',
      ],
      err: [],
    });
    expect(
      await dataSource.query(
        `SELECT call_id, anum, cnum, recording IS NOT NULL AS recording, commission::text FROM cdrs
          ORDER BY call_id`,
      ),
    ).toEqual([
      { call_id: 'call-1', anum: '+479xxxxxxx', cnum: null, recording: false, commission: '25.00' },
      { call_id: 'call-2', anum: '+479xxxxxxx', cnum: null, recording: false, commission: null },
      { call_id: 'call-3', anum: OTHER, cnum: '+479xxxxxxx', recording: true, commission: '25.00' },
      { call_id: 'call-4', anum: '+479xxxxxxx', cnum: null, recording: false, commission: null },
      { call_id: 'call-5', anum: '+479xxxxxxx', cnum: null, recording: false, commission: null },
    ]);
    expect(await dataSource.query(`SELECT cdr_id::text AS cdr_id FROM transcripts`)).toEqual([
      { cdr_id: other },
    ]);
    expect(await dataSource.query(`SELECT cdr_id::text AS cdr_id FROM transcription_jobs`)).toEqual([
      { cdr_id: other },
    ]);
    const payloads: Row[] = await dataSource.query(
      `SELECT payload, attachment_cdr_id FROM notification_outbox ORDER BY id`,
    );
    expect(payloads.map((row) => row.attachment_cdr_id)).toEqual([null, null, null]);
    expect(payloads.map((row) => row.payload)).toEqual([
      { subject: 'New voicemail from +479xxxxxxx', text: 'New voicemail from +479xxxxxxx to +4722000001' },
      { text: 'Missed call from +479xxxxxxx (+479xxxxxxx)' },
      { text: `Missed call from ${OTHER}` },
    ]);
    expect(
      await dataSource.query(
        `SELECT message_id, status, last_error FROM webhook_deliveries ORDER BY message_id`,
      ),
    ).toEqual([
      {
        message_id: 'msg_missed',
        status: 'pending',
        last_error:
          'receiver answered 422: {"error":"unknown anum +479xxxxxxx","data":{"anum":"+479xxxxxxx"}}',
      },
      { message_id: 'msg_other', status: 'dead', last_error: `receiver answered 400: anum ${OTHER}` },
      { message_id: 'msg_voicemail', status: 'sent', last_error: null },
    ]);
    expect(
      await client.exists(keys.call('call-1'), keys.call('call-not-recorded-yet'), keys.call('call-older')),
    ).toBe(0);
    expect(await client.exists(keys.call('call-3'))).toBe(1);
    expect(
      await dataSource.query(`SELECT call_sid, from_number FROM twilio_calls ORDER BY call_sid`),
    ).toEqual([
      { call_sid: 'CA-in-progress', from_number: '+479xxxxxxx' },
      { call_sid: 'CA-other-caller', from_number: OTHER },
      { call_sid: 'CA-other-partner', from_number: CALLER },
    ]);

    const again = await cli('privacy:erase', '--partner', 'acme', '--caller', CALLER);
    expect(again.out.slice(1)).toEqual([
      '  call records masked:          0',
      '  cnum masked in records:       0',
      '  recordings deleted:           0',
      '  transcripts deleted:          0',
      '  notifications redacted:       0',
      '  webhook deliveries redacted:  0',
      '  call attributions deleted:    0',
      '  provider calls masked:        0',
      '  spam list and history erased: 0',
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
