import { deferredStatement, StatementPipeline } from './statement-pipelining';

const OUTBOX = deferredStatement('INSERT INTO outbox (cdr_id) SELECT unnest($1::bigint[])');
const INSERT = 'INSERT INTO cdrs (call_id) VALUES ($1) RETURNING id';
const START = { text: 'START TRANSACTION', values: undefined };

describe('StatementPipeline (db/statement-pipelining.ts)', () => {
  it('holds START TRANSACTION for the first statement, and the outbox rows for COMMIT', () => {
    const pipeline = new StatementPipeline();
    expect(pipeline.plan('START TRANSACTION', undefined)).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ command: 'BEGIN', rows: [] }),
    });
    expect(pipeline.plan(INSERT, ['c-1'])).toEqual({ kind: 'send', waiting: [START] });
    expect(pipeline.plan(OUTBOX, [['7']])).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ rows: [] }),
    });
    expect(pipeline.plan(OUTBOX, [['8']]).kind).toBe('answer');
    expect(pipeline.plan('COMMIT', undefined)).toEqual({
      kind: 'send',
      waiting: [
        { text: OUTBOX, values: [['7']] },
        { text: OUTBOX, values: [['8']] },
      ],
    });
    // The transaction ended: the next one starts the same way, and a statement outside one waits not.
    expect(pipeline.plan('START TRANSACTION', []).kind).toBe('answer');
    expect(pipeline.plan('COMMIT', []).kind).toBe('answer');
    expect(pipeline.plan(OUTBOX, [['9']])).toEqual({ kind: 'send', waiting: [] });
  });

  it('sends nothing for a transaction that sent nothing, and drops what waits on ROLLBACK', () => {
    const pipeline = new StatementPipeline();
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
    expect(pipeline.plan('ROLLBACK', undefined)).toEqual({ kind: 'send', waiting: [] });
    expect(pipeline.flush()).toEqual([]);
  });

  it('hands what waits to a query it cannot read', () => {
    const pipeline = new StatementPipeline();
    pipeline.plan('START TRANSACTION', undefined);
    pipeline.plan(OUTBOX, [['3']]);
    expect(pipeline.flush()).toEqual([START, { text: OUTBOX, values: [['3']] }]);
    expect(pipeline.flush()).toEqual([]);
  });
});
