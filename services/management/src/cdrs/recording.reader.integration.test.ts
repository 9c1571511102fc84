import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { TypeormPartnersStore } from '../partners/partners.store';
import { SqlRecordingReader } from './recording.reader';

describe('SqlRecordingReader', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let partnerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    partnerId = (
      await new TypeormPartnersStore(dataSource.manager).insert({
        name: 'acme',
        digestUsername: 'acme-api',
        ha1Md5: 'a'.repeat(32),
        ha1Sha256: 'b'.repeat(64),
        signingSecret: 'sixteen-chars-ok',
        allowIps: [],
        country: 'NO',
        timeZone: 'Europe/Oslo',
        dni: { sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null },
        showFullAnum: false,
        cdrRetentionMonths: 24,
        anumMaskAfterDays: null,
      })
    ).id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function insertCdr(callId: string, recording: Buffer | null): Promise<string> {
    const [row] = await dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined,
                         recording, "timestamp")
       VALUES ($1, $2, now(), 5, '+4790000001', '+4721000000', false, true, false, $3, now())
       RETURNING id::text AS id`,
      [callId, partnerId, recording],
    );
    return (row as { id: string }).id;
  }

  it('reads the CDR’s recording bytes, and null without one', async () => {
    const audio = Buffer.from([0, 1, 2, 250, 251, 252]);
    const reader = new SqlRecordingReader(dataSource.manager);
    const withAudio = await insertCdr('call-with-audio', audio);
    const withoutAudio = await insertCdr('call-without-audio', null);

    expect((await reader.read(withAudio))?.equals(audio)).toBe(true);
    expect(await reader.read(withoutAudio)).toBeNull();
    expect(await reader.read('999999')).toBeNull();
  });
});
