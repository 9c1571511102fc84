import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { deferredStatement } from './statement-pipelining';

const INSERT_CALL =
  'INSERT INTO pipelined_calls (call_id, started, tags, payload) VALUES ($1, $2, $3::text[], $4::jsonb) RETURNING *';
const INSERT_EVENT = deferredStatement(
  'INSERT INTO pipelined_events (call_id, kind) SELECT $1, unnest($2::text[])',
);

describe('statements sent together (db/statement-pipelining.ts), on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  /** What node-postgres itself was asked to send, and in which round trip. */
  let sent: Array<{ text: string; round: number }>;
  /** The statements sent, a list per round trip. */
  const rounds = () => {
    const byRound = new Map<number, string[]>();
    for (const { text, round } of sent) byRound.set(round, [...(byRound.get(round) ?? []), text]);
    return [...byRound.values()];
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url, {
      applicationName: 'pipelining-test',
      size: 1,
      preparedStatements: true,
    });
    await dataSource.initialize();
    await dataSource.query(`
      CREATE TABLE pipelined_calls (id bigserial PRIMARY KEY, call_id text NOT NULL UNIQUE,
        started timestamptz, tags text[], payload jsonb);
      CREATE TABLE pipelined_events (call_id text NOT NULL, kind text NOT NULL CHECK (kind <> 'bad'))`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE pipelined_calls, pipelined_events');
    sent = [];
    // A statement's round: how many answers had come back when it was sent. Statements of one round
    // went out together, before the answer to any of them.
    let answered = 0;
    const query = pg.Client.prototype.query;
    jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const [config] = args;
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      sent.push({ text, round: answered });
      const answer = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      answer.then(
        () => (answered += 1),
        () => (answered += 1),
      );
      return answer as never;
    });
  });

  afterEach(() => jest.restoreAllMocks());

  const stored = async () => ({
    calls: (await dataSource.query('SELECT call_id FROM pipelined_calls ORDER BY call_id')) as unknown[],
    events: (await dataSource.query('SELECT call_id, kind FROM pipelined_events ORDER BY kind')) as unknown[],
  });

  it('stores a record and its events in two round trips: START with the insert, the events with COMMIT', async () => {
    const started = new Date('2026-11-28T10:24:13.250Z');
    const payload = { text: 'Missed call from O\'Brien \\ "the" caller ✆' };
    const [row] = (await dataSource.transaction(async (manager) => {
      const rows = (await manager.query(INSERT_CALL, [
        'c-1',
        started,
        ['a', null, 'b"c'],
        payload,
      ])) as unknown[];
      expect(await manager.query(INSERT_EVENT, ['c-1', ['call.completed', 'call.missed']])).toEqual([]);
      return rows;
    })) as Array<Record<string, unknown>>;

    expect(rounds()).toEqual([
      ['START TRANSACTION', INSERT_CALL],
      [INSERT_EVENT, 'COMMIT'],
    ]);
    // The answer is what the parameterized statement answers: the same types, the same text.
    const unpipelined = (await dataSource.query(INSERT_CALL, [
      'c-2',
      started,
      ['a', null, 'b"c'],
      payload,
    ])) as Array<Record<string, unknown>>;
    expect(row).toEqual({ ...unpipelined[0], id: row!.id, call_id: 'c-1' });
    expect(row).toMatchObject({ started, tags: ['a', null, 'b"c'], payload });
    expect(await stored()).toEqual({
      calls: [{ call_id: 'c-1' }, { call_id: 'c-2' }],
      events: [
        { call_id: 'c-1', kind: 'call.completed' },
        { call_id: 'c-1', kind: 'call.missed' },
      ],
    });
  });

  it('fails the transaction when a deferred statement fails, with its error, and stores nothing', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(INSERT_CALL, ['c-3', null, null, null]);
        await manager.query(INSERT_EVENT, ['c-3', ['bad']]);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'pipelined_events_kind_check' });
    expect(await stored()).toEqual({ calls: [], events: [] });
    // The connection is clean for the next transaction.
    await dataSource.transaction((manager) => manager.query(INSERT_CALL, ['c-4', null, null, null]));
    expect((await stored()).calls).toEqual([{ call_id: 'c-4' }]);
  });

  it('drops what waits on ROLLBACK, and sends nothing for a transaction that sent nothing', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(INSERT_EVENT, ['c-5', ['call.completed']]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await dataSource.transaction(async () => undefined);
    expect(sent).toEqual([]);
    expect(await stored()).toEqual({ calls: [], events: [] });
  });

  it('keeps each statement its own snapshot: a deferred lock is held before the next statement reads', async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(4242)');
      const reading = dataSource.transaction(async (manager) => {
        await manager.query(deferredStatement('SELECT pg_advisory_xact_lock($1::bigint)'), [4242]);
        return (await manager.query('SELECT count(*)::int AS n FROM pipelined_calls WHERE call_id = $1', [
          'c-6',
        ])) as unknown[];
      });
      // The reader waits for the lock; a record committed meanwhile is what it then reads.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.query("INSERT INTO pipelined_calls (call_id) VALUES ('c-6')");
      await other.query('COMMIT');
      expect(await reading).toEqual([{ n: 1 }]);
    } finally {
      await other.end();
    }
  });

  it('a statement that waited and failed fails the next one with its own error, and the transaction', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query(INSERT_EVENT, ['c-7', ['bad']]);
        await manager.query('SELECT count(*)::int AS n FROM pipelined_events WHERE call_id = $1', ['c-7']);
      }),
    ).rejects.toMatchObject({ code: '23514' });
    expect(rounds()).toEqual([
      [
        'START TRANSACTION',
        INSERT_EVENT,
        'SELECT count(*)::int AS n FROM pipelined_events WHERE call_id = $1',
      ],
      ['ROLLBACK'],
    ]);
    expect(await stored()).toEqual({ calls: [], events: [] });
  });

  it('sends what waits before a query given as an object, in order', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query(INSERT_EVENT, ['c-8', ['call.completed']]);
      const client = (await manager.queryRunner!.connect()) as pg.ClientBase;
      const { rows } = await client.query({
        text: 'SELECT count(*)::int AS n FROM pipelined_events WHERE call_id = $1',
        values: ['c-8'],
      });
      expect(rows).toEqual([{ n: 1 }]);
    });
    expect((await stored()).events).toEqual([{ call_id: 'c-8', kind: 'call.completed' }]);
  });
});
