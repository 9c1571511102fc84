import { Writable } from 'node:stream';
import pino from 'pino';
import { outageAwareRounds, StoreOutages } from './store-outages';

function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('StoreOutages', () => {
  it('tells an outage in two lines however much work it refuses, and counts each refusal', async () => {
    const { log, lines } = capturingLogger();
    let now = 1_000;
    const counted: string[] = [];
    const outages = new StoreOutages<'postgres'>({
      log,
      storeOf: (error) => (error === down ? 'postgres' : undefined),
      onRefused: (store, work) => counted.push(`${store}/${work}`),
      now: () => now,
    });
    for (let i = 0; i < 500; i += 1) expect(outages.refused(down, 'request')).toBe(true);
    expect(outages.refused(down, 'round')).toBe(true);
    expect(outages.refused(new Error('a bug'), 'request')).toBe(false);
    now = 4_500;
    outages.reachable('postgres');
    outages.reachable('postgres');
    await flush();
    expect(lines.map((line) => line.msg)).toEqual(['postgres is unreachable', 'postgres is reachable again']);
    expect(lines[0]).toMatchObject({ store: 'postgres', error: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(lines[0]!.err).toBeUndefined();
    expect(lines[1]).toMatchObject({ downMs: 3_500, refusedRequests: 500, failedRounds: 1 });
    expect(counted).toHaveLength(501);
    outages.close();
  });

  it('finds the end of an outage by probing the store', async () => {
    const { log, lines } = capturingLogger();
    let answers = false;
    const outages = new StoreOutages<'redis'>({
      log,
      storeOf: () => 'redis',
      probes: { redis: () => Promise.resolve(answers) },
      probeEveryMs: 5,
    });
    outages.refused(new Error('Connection is closed.'), 'request');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(outages.isDown('redis')).toBe(true);
    answers = true;
    await new Promise((resolve) => setTimeout(resolve, 30));
    await flush();
    expect(outages.isDown('redis')).toBe(false);
    expect(lines.map((line) => line.msg)).toEqual(['redis is unreachable', 'redis is reachable again']);
    outages.close();
  });

  it("a worker's rounds: an outage told once, other failures logged with their stack", async () => {
    const { log, lines } = capturingLogger();
    const outages = new StoreOutages<'postgres'>({
      log,
      storeOf: (error) => (error === down ? 'postgres' : undefined),
    });
    const rounds = outageAwareRounds(outages, log, 'notification');
    rounds.onError(down, 1, 1000);
    rounds.onError(down, 2, 2000);
    rounds.onRecovered(2);
    rounds.onError(new Error('a bug'), 1, 1000);
    rounds.onRecovered(1);
    await flush();
    expect(lines.map((line) => line.msg)).toEqual([
      'postgres is unreachable',
      'postgres is reachable again',
      'notification round failed; retrying',
      'notification rounds work again',
    ]);
    expect(lines[2]!.err).toMatchObject({ message: 'a bug', stack: expect.any(String) });
  });
});
