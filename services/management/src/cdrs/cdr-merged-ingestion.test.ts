import { ServiceUnavailableError } from '@trackline/domain';
import type { Cdr } from './cdr';
import type { CdrIngestion } from './cdr-ingestion.service';
import type { IngestOutcome } from './cdr-ingest-outcome';
import type { CdrInput } from './cdr-input';
import { MERGE_MAX_RECORDS, mergedIngestion } from './cdr-merged-ingestion';

/** A record that names itself by its call id; nothing else of it is read here. */
const record = (callId: string): CdrInput => ({ callId }) as CdrInput;
const records = (prefix: string, count: number): CdrInput[] =>
  Array.from({ length: count }, (_, i) => record(`${prefix}${i}`));
const storedAs = (input: CdrInput): IngestOutcome => ({
  ok: true,
  cdr: { callId: input.callId } as Cdr,
  created: true,
});
const callIds = (outcomes: readonly IngestOutcome[]): Array<string | null> =>
  outcomes.map((outcome) => (outcome.ok ? outcome.cdr.callId : outcome.callId));

interface Write {
  records: readonly CdrInput[];
  now: Date;
  finish(): void;
  fail(error: unknown): void;
}

/** An inner ingestion whose writes finish when the test says so; each write's records and time are kept. */
function heldIngestion(): { inner: CdrIngestion; writes: Write[] } {
  const writes: Write[] = [];
  const inner: CdrIngestion = {
    ingest: (sent, now) =>
      new Promise<IngestOutcome[]>((resolve, reject) => {
        writes.push({ records: sent, now, finish: () => resolve(sent.map(storedAs)), fail: reject });
      }),
  };
  return { inner, writes };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('mergedIngestion', () => {
  it('writes a request at once when nothing is being written', async () => {
    const { inner, writes } = heldIngestion();
    const merged = mergedIngestion(inner);
    const answer = merged.ingest([record('a')], new Date(1_000));
    await settle();
    expect(writes.map((write) => write.records.map((sent) => sent.callId))).toEqual([['a']]);
    writes[0]!.finish();
    expect(callIds(await answer)).toEqual(['a']);
  });

  it('merges the requests that arrive during a write into the next one, each answered with its own outcomes', async () => {
    const { inner, writes } = heldIngestion();
    const merged = mergedIngestion(inner);
    const first = merged.ingest([record('a')], new Date(1_000));
    await settle();
    const second = merged.ingest([record('b')], new Date(1_002));
    const third = merged.ingest([record('c'), record('d')], new Date(1_001));
    await settle();
    expect(writes).toHaveLength(1);

    writes[0]!.finish();
    expect(callIds(await first)).toEqual(['a']);
    await settle();
    expect(writes).toHaveLength(2);
    expect(writes[1]!.records.map((sent) => sent.callId)).toEqual(['b', 'c', 'd']);
    // Stored at the latest of the merged requests' times.
    expect(writes[1]!.now).toEqual(new Date(1_002));

    writes[1]!.finish();
    expect(callIds(await second)).toEqual(['b']);
    expect(callIds(await third)).toEqual(['c', 'd']);
  });

  it(`merges at most ${MERGE_MAX_RECORDS} records, and larger requests go straight through`, async () => {
    const { inner, writes } = heldIngestion();
    const merged = mergedIngestion(inner);
    void merged.ingest([record('first')], new Date());
    await settle();
    const half = Math.floor(MERGE_MAX_RECORDS / 2) + 1;
    const waiting = [
      merged.ingest(records('x', half), new Date()),
      merged.ingest(records('y', half), new Date()),
    ];
    const large = merged.ingest(records('big', MERGE_MAX_RECORDS + 1), new Date());
    await settle();
    // The large request did not wait for the write under way.
    expect(writes.map((write) => write.records.length)).toEqual([1, MERGE_MAX_RECORDS + 1]);

    writes[0]!.finish();
    await settle();
    // Two halves together would pass the limit: each is written on its own, one after the other.
    expect(writes.map((write) => write.records.length)).toEqual([1, MERGE_MAX_RECORDS + 1, half]);
    writes[2]!.finish();
    await settle();
    expect(writes.map((write) => write.records.length)).toEqual([1, MERGE_MAX_RECORDS + 1, half, half]);
    writes[3]!.finish();
    writes[1]!.finish();
    expect((await Promise.all(waiting)).map((outcomes) => outcomes.length)).toEqual([half, half]);
    expect(await large).toHaveLength(MERGE_MAX_RECORDS + 1);
  });

  it('refuses every merged request when the stores are unreachable', async () => {
    const { inner, writes } = heldIngestion();
    const merged = mergedIngestion(inner);
    void merged.ingest([record('a')], new Date());
    await settle();
    const second = merged.ingest([record('b')], new Date());
    const third = merged.ingest([record('c')], new Date());
    writes[0]!.finish();
    await settle();
    const unreachable = new ServiceUnavailableError('retry later');
    writes[1]!.fail(unreachable);
    await expect(second).rejects.toBe(unreachable);
    await expect(third).rejects.toBe(unreachable);
    expect(writes).toHaveLength(2);
  });

  it('writes each merged request alone after an unexpected fault, so only the request that meets it fails', async () => {
    const fault = new Error('unexpected');
    const writes: Array<readonly string[]> = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inner: CdrIngestion = {
      ingest: async (sent) => {
        writes.push(sent.map((input) => input.callId));
        if (sent[0]!.callId === 'first') await held;
        if (sent.some((input) => input.callId === 'bad')) throw fault;
        return sent.map(storedAs);
      },
    };
    const merged = mergedIngestion(inner);
    const first = merged.ingest([record('first')], new Date());
    await settle();
    const good = merged.ingest([record('good')], new Date());
    const bad = merged.ingest([record('bad')], new Date());
    release();

    expect(callIds(await first)).toEqual(['first']);
    expect(callIds(await good)).toEqual(['good']);
    await expect(bad).rejects.toBe(fault);
    expect(writes).toEqual([['first'], ['good', 'bad'], ['good'], ['bad']]);
  });

  it('goes on with the next requests after a write fails', async () => {
    const { inner, writes } = heldIngestion();
    const merged = mergedIngestion(inner);
    const failing = merged.ingest([record('a')], new Date());
    await settle();
    const next = merged.ingest([record('b')], new Date());
    writes[0]!.fail(new ServiceUnavailableError('retry later'));
    await expect(failing).rejects.toBeInstanceOf(ServiceUnavailableError);
    await settle();
    writes[1]!.finish();
    expect(callIds(await next)).toEqual(['b']);
  });
});
