import { createBiddingSetup } from '../test-support/bidding-setup';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { PartnerApi, xmlList, type ApiAnswer } from '../test-support/partner-api';
import { partnerClient } from '../test-support/partner-client';
import { TypeormCdrOutcomesStore } from './cdr-outcomes.store';
import { FEED_LIMIT_MAX } from './cdr-changes.dto';

const PARTNER = {
  advId: 'feed-acme',
  username: 'feed-acme-api',
  password: 'feed password',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const OTHER = { advId: 'feed-other', username: 'feed-other-api', password: 'other password' };

type Body = Record<string, unknown>;
type Mirror = Map<string, Body>;

// GET /v1/cdrs/changes (docs/cdrs.md, Change feed) as a warehouse reads it: every change once, in
// order, with the record as GET /statistics/cdrs?extended=1 renders it; a transaction that commits
// after a later one is still answered; a mirror built from the feed while writers run equals the API.
describe('call records change feed', () => {
  jest.setTimeout(E2E_TIMEOUT_MS * 4);
  let env: E2eEnvironment;
  let bnum: string;
  let customerId: string;
  let calls = 0;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', '+4722300001');
    const bidding = await createBiddingSetup(env.api, 'json', {
      custnr: 'FEED-1',
      phonenr: '23 45 69 01',
      costPerLead: '40.00',
      condition: {
        min_duration: '10',
        from_time: '00:00',
        to_time: '23:59',
        weekdays: 'mon,tue,wed,thu,fri,sat,sun',
      },
    });
    bnum = bidding.source.destnr as string;
    customerId = bidding.customerId;
    reading = new PartnerApi(env.management.port, PARTNER.username, PARTNER.password);
    writing = [0, 1].map(() => new PartnerApi(env.management.port, PARTNER.username, PARTNER.password));
  });

  afterAll(async () => {
    await env?.close();
  });

  function call(anum: string): Body {
    calls += 1;
    const second = String(calls % 60).padStart(2, '0');
    const minute = String(Math.floor(calls / 60) % 60).padStart(2, '0');
    return {
      call_id: `feed-${calls}`,
      anum,
      bnum,
      start: `2026-11-20 10:${minute}:${second}`,
      duration: 30 + (calls % 50),
      answered: 1,
    };
  }

  async function ingest(records: Body[]): Promise<string[]> {
    const stored = await env.ingest(records);
    expect(stored.status).toBe(200);
    return (stored.body.cdrs as Body[]).map((cdr) => cdr.cdr_id as string);
  }

  // Each concurrent client has its own digest client: a nonce's counter is one client's.
  let reading: PartnerApi;
  let writing: PartnerApi[];

  async function feed(cursor: string, limit = FEED_LIMIT_MAX): Promise<ApiAnswer> {
    const answer = await reading.read(`/v1/cdrs/changes?cursor=${encodeURIComponent(cursor)}&limit=${limit}`);
    expect(answer.status).toBe(200);
    return answer;
  }

  /** Applies every change the feed answers from `cursor` until it answers none; the cursor after. */
  async function drain(mirror: Mirror, cursor: string): Promise<string> {
    for (;;) {
      const { body } = await feed(cursor, 50);
      const changes = body.cdr_changes as Body[];
      for (const change of changes) {
        if (change.deleted === '1') mirror.delete(change.cdr_id as string);
        else mirror.set(change.cdr_id as string, change.cdr as Body);
      }
      cursor = body.next_cursor as string;
      if (changes.length === 0) return cursor;
    }
  }

  /**
   * The changes after `cursor` once `enough` says they are all there. A change is answered only
   * when every transaction older than its own has ended, on the whole database server: other
   * tests' transactions can hold the feed back for a while (docs/cdrs.md, Change feed).
   */
  async function collect(cursor: string, enough: (changes: Body[]) => boolean): Promise<Body[]> {
    const changes: Body[] = [];
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { body } = await feed(cursor);
      changes.push(...(body.cdr_changes as Body[]));
      cursor = body.next_cursor as string;
      if (enough(changes)) return changes;
      if (Date.now() > deadline) throw new Error(`the feed held back: ${JSON.stringify(changes)}`);
      if (body.more === '0') await pause(50);
    }
  }

  /** Drains into the mirror until `done` says it has what the test wrote; the cursor after. */
  async function catchUp(mirror: Mirror, cursor: string, done: (mirror: Mirror) => boolean): Promise<string> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      cursor = await drain(mirror, cursor);
      if (done(mirror)) return cursor;
      if (Date.now() > deadline) throw new Error('the feed held back');
      await pause(50);
    }
  }

  /** Every record of the customer as GET /statistics/cdrs?extended=1 lists it. */
  async function listed(): Promise<Mirror> {
    const records: Mirror = new Map();
    for (let page = 0; ; page++) {
      const answer = await reading.read(
        `/v1/statistics/cdrs?customer_id=${customerId}&extended=1&page=${page}&pagesize=1000`,
      );
      expect(answer.status).toBe(200);
      for (const cdr of answer.body.cdrs as Body[]) records.set(cdr.cdr_id as string, cdr);
      if (page + 1 >= (answer.body.numpages as number)) return records;
    }
  }

  it('answers each change once, oldest first, with the extended record, in JSON and XML', async () => {
    const [first, second] = await ingest([call('+4798100001'), call('+4798100002')]);
    expect((await env.api.write('PUT', `/v1/cdrs/${first}/outcome`, { status: 'lead' })).status).toBe(200);
    expect((await env.api.write('PUT', `/v1/cdrs/${second}/spam`, { spam: '1' })).status).toBe(200);

    const changes = await collect('', (all) => all.length >= 4);
    expect(changes.map((change) => [change.cdr_id, change.change, change.deleted])).toEqual([
      [first, 'created', '0'],
      [second, 'created', '0'],
      [first, 'outcome', '0'],
      [second, 'spam', '0'],
    ]);
    const now = await listed();
    // The record as it is when read: the created change already shows the outcome posted after it.
    for (const change of changes) expect(change.cdr).toEqual(now.get(change.cdr_id as string));
    expect(changes[0]).toMatchObject({
      change_id: expect.stringMatching(/^\d+$/),
      changed_at: expect.any(String),
    });
    expect(new Set(changes.map((change) => change.change_id)).size).toBe(4);

    // Paging by cursor gives the same changes, one at a time.
    let cursor = '';
    const oneByOne: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const page = await feed(cursor, 1);
      expect(page.body.more).toBe('1');
      oneByOne.push(...(page.body.cdr_changes as Body[]).map((change) => change.change_id));
      cursor = page.body.next_cursor as string;
    }
    expect(oneByOne).toEqual(changes.map((change) => change.change_id));
    const end = await feed(cursor);
    expect(end.body).toEqual({ next_cursor: cursor, more: '0', cdr_changes: [] });

    const xml = await env.api.read(`/v1/cdrs/changes?limit=2`, 'xml');
    expect(xml.status).toBe(200);
    const root = xml.body.cdr_changes as Body;
    expect(root.more).toBe('1');
    expect(typeof root.next_cursor).toBe('string');
    const xmlChanges = xmlList<Body>(root.cdr_change);
    expect(xmlChanges.map((change) => [change.cdr_id, change.change])).toEqual([
      [first, 'created'],
      [second, 'created'],
    ]);
    expect((xmlChanges[0]!.cdr as Body).cdr_id).toBe(first);
  });

  it('is read by @trackline/client as the API answers it', async () => {
    const client = partnerClient(env.management.port, PARTNER.username, PARTNER.password);
    try {
      const first = await client.cdrChanges('', 2);
      expect(first.data.more).toBe('1');
      const next = await client.cdrChanges(first.data.next_cursor, 2);
      const { body } = await feed('', 4);
      expect([...first.data.cdr_changes, ...next.data.cdr_changes]).toEqual(body.cdr_changes);
    } finally {
      client.close();
    }
  });

  it('answers only the partner its own records', async () => {
    await env.operator(
      'partner:create', '--name', OTHER.advId, '--username', OTHER.username, '--password', OTHER.password,
      '--signing-secret', 'another-signing-secret-of-32-chars', '--allow-ip', '127.0.0.1',
    ); // prettier-ignore
    await env.operator('numbers:add', '--partner', OTHER.advId, '--kind', 'pool', '+4791300001');
    const stored = await env.ingest({ ...call('+4798100009'), bnum: '+4791300001' });
    expect(stored.status).toBe(201);
    const otherId = (stored.body.cdrs as Body[])[0]!.cdr_id as string;
    const other = new PartnerApi(env.management.port, OTHER.username, OTHER.password);
    const deadline = Date.now() + 30_000;
    let theirs = await other.read('/v1/cdrs/changes');
    while ((theirs.body.cdr_changes as Body[]).length === 0 && Date.now() < deadline) {
      await pause(50);
      theirs = await other.read('/v1/cdrs/changes');
    }
    expect((theirs.body.cdr_changes as Body[]).map((change) => change.cdr_id)).toEqual([otherId]);
    const mine = new Map<string, Body>();
    await drain(mine, '');
    expect(mine.has(otherId)).toBe(false);
  });

  it.each([
    ['cursor=not-a-cursor', 'cursor: must be a cursor this feed answered (next_cursor), or empty'],
    [
      `cursor=${Buffer.from('c1.1.x').toString('base64url')}`,
      'cursor: must be a cursor this feed answered (next_cursor), or empty',
    ],
    ['limit=0', 'limit: must be a whole number from 1 to 1000'],
    ['limit=1001', 'limit: must be a whole number from 1 to 1000'],
    ['limit=ten', 'limit: must be a whole number from 1 to 1000'],
    ['page=1', 'page: is not a known query parameter'],
  ])('refuses %s with a 400 naming the field', async (query, message) => {
    const answer = await env.api.read(`/v1/cdrs/changes?${query}`);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { error: { status: 400, message } },
    });
  });

  it('does not skip a transaction that commits after a later one', async () => {
    const [early, late] = await ingest([call('+4798100003'), call('+4798100004')]);
    const mirror: Mirror = new Map();
    const before = await catchUp(mirror, '', (copy) => copy.has(early!) && copy.has(late!));

    // T1 changes `early` and stays open; T2 changes `late` through the API and commits first.
    const runner = env.stores.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const outcomes = new TypeormCdrOutcomesStore(runner.manager);
      const record = await outcomes.lockRecord(await partnerId(), { cdrId: early! });
      await outcomes.setOutcome(record!, {
        status: 'sale',
        value: '10.00',
        currency: 'NOK',
        note: null,
        at: new Date(),
      });
      expect((await env.api.write('PUT', `/v1/cdrs/${late}/outcome`, { status: 'lead' })).status).toBe(200);

      // T2 is committed, but T1 may still note changes before it: nothing is answered yet.
      const held = await feed(before);
      expect(held.body).toEqual({ next_cursor: before, more: '0', cdr_changes: [] });
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    const after = new Map(mirror);
    const changes = await collect(before, (all) => all.length >= 2);
    for (const change of changes) after.set(change.cdr_id as string, change.cdr as Body);
    expect(changes.map((change) => [change.cdr_id, change.change])).toEqual([
      [early, 'outcome'],
      [late, 'outcome'],
    ]);
    expect(after.get(early!)).toMatchObject({ outcome_status: 'sale', outcome_value: '10.00' });
    expect(after.get(late!)).toMatchObject({ outcome_status: 'lead' });
  });

  it('mirrors into what the API lists while records are created, re-marked, given outcomes and erased', async () => {
    const mirror: Mirror = new Map();
    let cursor = await drain(mirror, '');
    const start = cursor;
    const callers = ['+4798200001', '+4798200002', '+4798200003', '+4798200004', '+4798200005'];
    const ids: string[] = [];
    let running = true;

    const ingesters = [0, 1, 2].map(async (writer) => {
      for (let round = 0; round < 6; round++) {
        const batch = Array.from({ length: 4 }, (_, i) =>
          call(callers[(writer + round + i) % callers.length]!),
        );
        ids.push(...(await ingest(batch)));
      }
    });
    const outcomes = (async () => {
      for (let i = 0; i < 20; i++) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        if (id !== undefined)
          await writing[0]!.write('PUT', `/v1/cdrs/${id}/outcome`, {
            status: i % 2 === 0 ? 'lead' : 'qualified',
          });
        await pause(5);
      }
    })();
    const marks = (async () => {
      for (let i = 0; i < 20; i++) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        if (id !== undefined)
          await writing[1]!.write('PUT', `/v1/cdrs/${id}/spam`, { spam: i % 2 === 0 ? '1' : '0' });
        await pause(5);
      }
    })();
    const erasures = (async () => {
      for (const caller of [callers[0]!, callers[3]!]) {
        await pause(30);
        await env.operator('privacy:erase', '--partner', PARTNER.advId, '--caller', caller);
      }
    })();
    const reader = (async () => {
      while (running) {
        cursor = await drain(mirror, cursor);
        await pause(10);
      }
    })();
    // Writers that fail (a lock timeout under load) change nothing the mirror must show; the
    // comparison below is with what the API lists at the end either way.
    await Promise.allSettled([...ingesters, outcomes, marks, erasures]);
    running = false;
    await reader;

    const expected = await listed();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      cursor = await drain(mirror, cursor);
      if (sameRecords(mirror, expected)) break;
      await pause(100);
    }
    expect(Object.fromEntries(mirror)).toEqual(Object.fromEntries(expected));
    // The ingesters stored most of their 72 calls (a batch refused under load changes nothing).
    expect(mirror.size).toBeGreaterThan(30);
    // Every kind of writer took part while the mirror was read.
    const kinds = new Set<unknown>();
    for (let at = start; ;) {
      const { body } = await feed(at);
      for (const change of body.cdr_changes as Body[]) kinds.add(change.change);
      if (body.more === '0') break;
      at = body.next_cursor as string;
    }
    expect([...kinds].sort()).toEqual(['created', 'erased', 'outcome', 'spam']);
  });

  it('gives records the retention deleted a tombstone', async () => {
    const [gone] = await ingest([call('+4798100007')]);
    const mirror: Mirror = new Map();
    const cursor = await catchUp(mirror, '', (copy) => copy.has(gone!));
    await env.stores.dataSource.query(`UPDATE partners SET cdr_retention_months = 1 WHERE name = $1`, [
      PARTNER.advId,
    ]);
    await env.stores.dataSource.query(`UPDATE cdrs SET start = start - interval '90 days' WHERE id = $1`, [
      gone,
    ]);
    await env.operator('data-lifecycle:run');
    const changes = await collect(cursor, (all) => all.some((change) => change.change === 'deleted'));
    const tombstone = changes.find((change) => change.cdr_id === gone);
    expect(tombstone).toMatchObject({ cdr_id: gone, change: 'deleted', deleted: '1', cdr: null });
  });

  async function partnerId(): Promise<string> {
    const rows: Array<{ id: string }> = await env.stores.dataSource.query(
      `SELECT id::text AS id FROM partners WHERE name = $1`,
      [PARTNER.advId],
    );
    return rows[0]!.id;
  }
});

function sameRecords(a: Mirror, b: Mirror): boolean {
  return (
    JSON.stringify(Object.fromEntries([...a].sort())) === JSON.stringify(Object.fromEntries([...b].sort()))
  );
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
