import { deferredStatement, joinableStatement, StatementPipeline } from './statement-pipelining';

const OUTBOX = deferredStatement('INSERT INTO outbox (cdr_id) SELECT unnest($1::bigint[])');
const INSERT = joinableStatement('INSERT INTO cdrs (call_id) VALUES ($1) RETURNING id');
const joined = (...texts: string[]) => texts.join(';\n');

describe('StatementPipeline (db/statement-pipelining.ts)', () => {
  it('sends START TRANSACTION with the first statement, and the outbox rows with COMMIT', () => {
    const pipeline = new StatementPipeline();
    expect(pipeline.plan('START TRANSACTION', undefined)).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ command: 'BEGIN', rows: [] }),
    });
    expect(pipeline.plan(INSERT, ['c-1'])).toEqual({
      kind: 'joined',
      text: joined('START TRANSACTION', INSERT.replace('$1', "'c-1'")),
      waiting: 1,
    });
    expect(pipeline.plan(OUTBOX, [['7']])).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ command: 'INSERT', rows: [] }),
    });
    expect(pipeline.plan('COMMIT', undefined)).toEqual({
      kind: 'joined',
      text: joined(OUTBOX.replace('$1', '\'{"7"}\''), 'COMMIT'),
      waiting: 1,
    });
    // The transaction ended: the next one starts the same way.
    expect(pipeline.plan('START TRANSACTION', undefined).kind).toBe('answer');
  });

  it('sends what waits on its own before a statement not marked joinable, which goes as it came', () => {
    const pipeline = new StatementPipeline();
    pipeline.plan('START TRANSACTION', []);
    expect(pipeline.plan('SELECT * FROM cdrs WHERE id = $1', ['1'])).toEqual({
      kind: 'after',
      text: 'START TRANSACTION',
    });
    expect(pipeline.plan('SELECT * FROM cdrs WHERE id = $1', ['2'])).toEqual({ kind: 'as-is' });
    pipeline.plan(OUTBOX, [['1']]);
    expect(pipeline.plan('SELECT 1', undefined)).toEqual({
      kind: 'joined',
      text: joined(OUTBOX.replace('$1', '\'{"1"}\''), 'SELECT 1'),
      waiting: 1,
    });
    expect(pipeline.plan('COMMIT', undefined)).toEqual({ kind: 'as-is' });
  });

  it('sends nothing for a transaction that sent nothing, and drops what waits on ROLLBACK', () => {
    const pipeline = new StatementPipeline();
    pipeline.plan('START TRANSACTION', undefined);
    expect(pipeline.plan('COMMIT', undefined)).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ command: 'COMMIT' }),
    });
    pipeline.plan('START TRANSACTION', undefined);
    pipeline.plan(OUTBOX, [['1']]);
    expect(pipeline.plan('ROLLBACK', undefined)).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ command: 'ROLLBACK' }),
    });
    // Begun in Postgres: ROLLBACK goes there, without the rows that wait.
    pipeline.plan('START TRANSACTION', undefined);
    pipeline.plan(INSERT, ['c-2']);
    pipeline.plan(OUTBOX, [['2']]);
    expect(pipeline.plan('ROLLBACK', undefined)).toEqual({ kind: 'as-is' });
    expect(pipeline.flush()).toBeNull();
  });

  it('sends a deferred statement at once outside a transaction', () => {
    const pipeline = new StatementPipeline();
    expect(pipeline.plan(OUTBOX, [['1']])).toEqual({ kind: 'as-is' });
  });

  it('hands what waits to a query it cannot read', () => {
    const pipeline = new StatementPipeline();
    pipeline.plan('START TRANSACTION', undefined);
    pipeline.plan(INSERT, ['c-3']);
    pipeline.plan(OUTBOX, [['3']]);
    expect(pipeline.flush()).toBe(OUTBOX.replace('$1', '\'{"3"}\''));
    expect(pipeline.flush()).toBeNull();
  });
});
