import { errorBackoffMs, PollingWorker, type RoundOutcome, type Sleep } from './polling-worker';

/** Values handed over one at a time: a test awaits the next one instead of a clock. */
class Channel<T> {
  private readonly values: T[] = [];
  private readonly takers: Array<(value: T) => void> = [];

  push(value: T): void {
    const taker = this.takers.shift();
    if (taker === undefined) this.values.push(value);
    else taker(value);
  }

  next(): Promise<T> {
    const value = this.values.shift();
    if (value !== undefined) return Promise.resolve(value);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  get pending(): number {
    return this.values.length;
  }
}

/** A round the test ends, and a wait the test (or the worker's signal) ends. */
type Step =
  | { kind: 'round'; signal: AbortSignal; end(outcome: RoundOutcome): void; fail(error: Error): void }
  | { kind: 'wait'; ms: number; signal: AbortSignal; elapse(): void };

function harness(
  options: { idleMs?: number; firstMs?: number; maxMs?: number; defaultBackoff?: boolean } = {},
) {
  const steps = new Channel<Step>();
  const errors: Array<{ message: string; failures: number; retryInMs: number }> = [];
  const recoveries: number[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => resolve(), { once: true });
      steps.push({ kind: 'wait', ms, signal, elapse: resolve });
    });
  const worker = new PollingWorker({
    name: 'test worker',
    round: (signal) =>
      new Promise<RoundOutcome>((resolve, reject) =>
        steps.push({ kind: 'round', signal, end: resolve, fail: reject }),
      ),
    idleMs: options.idleMs ?? 100,
    ...(options.defaultBackoff
      ? {}
      : { errorBackoff: { firstMs: options.firstMs ?? 10, maxMs: options.maxMs ?? 35 } }),
    onError: (error, failures, retryInMs) =>
      errors.push({ message: (error as Error).message, failures, retryInMs }),
    onRecovered: (failures) => recoveries.push(failures),
    sleep,
  });
  const round = async () => expectStep(await steps.next(), 'round');
  const wait = async () => expectStep(await steps.next(), 'wait');
  return { worker, steps, errors, recoveries, round, wait };
}

function expectStep<K extends Step['kind']>(step: Step, kind: K): Extract<Step, { kind: K }> {
  expect(step.kind).toBe(kind);
  return step as Extract<Step, { kind: K }>;
}

describe('errorBackoffMs', () => {
  it('doubles from the first wait and stops at the cap', () => {
    const backoff = { firstMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((failures) => errorBackoffMs(failures, backoff))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(errorBackoffMs(5_000, backoff)).toBe(1_000);
  });
});

describe('PollingWorker', () => {
  it('goes again at once after a busy round and waits the idle time after an idle one', async () => {
    const { worker, round, wait } = harness({ idleMs: 250 });
    worker.start();
    (await round()).end('again');
    (await round()).end('idle');
    const idle = await wait();
    expect(idle.ms).toBe(250);
    idle.elapse();
    (await round()).end('idle');
    await wait();
    await worker.stop();
  });

  it('backs off after failures in a row, capped, and starts over after a success', async () => {
    const { worker, errors, recoveries, round, wait } = harness({ firstMs: 10, maxMs: 35 });
    worker.start();
    const waits: number[] = [];
    for (let failure = 1; failure <= 4; failure++) {
      (await round()).fail(new Error(`down ${failure}`));
      const backoff = await wait();
      waits.push(backoff.ms);
      backoff.elapse();
    }
    expect(waits).toEqual([10, 20, 35, 35]);
    expect(errors).toEqual([
      { message: 'down 1', failures: 1, retryInMs: 10 },
      { message: 'down 2', failures: 2, retryInMs: 20 },
      { message: 'down 3', failures: 3, retryInMs: 35 },
      { message: 'down 4', failures: 4, retryInMs: 35 },
    ]);
    (await round()).end('again');
    const afterRecovery = await round();
    expect(recoveries).toEqual([4]);
    afterRecovery.fail(new Error('down again'));
    expect((await wait()).ms).toBe(10);
    await worker.stop();
    expect(recoveries).toEqual([4]);
  });

  it('backs off from the idle wait up to 30 s when no backoff is named', async () => {
    const { worker, round, wait } = harness({ idleMs: 10_000, defaultBackoff: true });
    worker.start();
    const waits: number[] = [];
    for (let failure = 1; failure <= 3; failure++) {
      (await round()).fail(new Error(`down ${failure}`));
      const backoff = await wait();
      waits.push(backoff.ms);
      backoff.elapse();
    }
    expect(waits).toEqual([10_000, 20_000, 30_000]);
    await worker.stop();
  });

  it('stop() ends the idle wait and runs no further round', async () => {
    const { worker, steps, round, wait } = harness();
    worker.start();
    (await round()).end('idle');
    const idle = await wait();
    await worker.stop();
    expect(idle.signal.aborted).toBe(true);
    expect(steps.pending).toBe(0);
  });

  it('stop() waits for the round in flight, whose signal it aborts, and reports no failure of it', async () => {
    const { worker, steps, errors, round } = harness();
    worker.start();
    const inFlight = await round();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    expect(inFlight.signal.aborted).toBe(true);
    // Let every settled promise run: stop() must still be waiting for the round.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    inFlight.fail(new Error('connection closed by the shutdown'));
    await stopping;
    expect(stopped).toBe(true);
    expect(errors).toEqual([]);
    expect(steps.pending).toBe(0);
  });

  it('stop() ends an error backoff too', async () => {
    const { worker, round, wait } = harness();
    worker.start();
    (await round()).fail(new Error('down'));
    const backoff = await wait();
    await worker.stop();
    expect(backoff.signal.aborted).toBe(true);
  });

  it('wake() ends the idle wait, and one during a round skips the next idle wait', async () => {
    const { worker, steps, round, wait } = harness();
    worker.start();
    (await round()).end('idle');
    const idle = await wait();
    worker.wake();
    expect(idle.signal.aborted).toBe(true);
    const woken = await round();
    worker.wake();
    woken.end('idle');
    // No wait between: the wake-up during the round is not lost.
    (await round()).end('idle');
    const next = await wait();
    expect(next.signal.aborted).toBe(false);
    await worker.stop();
    expect(steps.pending).toBe(0);
  });

  it('wake() does not cut an error backoff short', async () => {
    const { worker, round, wait } = harness();
    worker.start();
    (await round()).fail(new Error('down'));
    const backoff = await wait();
    worker.wake();
    expect(backoff.signal.aborted).toBe(false);
    await worker.stop();
  });

  it('starts once; a worker stopped before its start runs no round', async () => {
    const stoppedFirst = harness();
    await stoppedFirst.worker.stop();
    stoppedFirst.worker.start();
    await stoppedFirst.worker.stop();
    expect(stoppedFirst.steps.pending).toBe(0);

    const { worker, round } = harness();
    worker.start();
    expect(() => worker.start()).toThrow('test worker already started');
    (await round()).end('idle');
    await worker.stop();
  });
});
