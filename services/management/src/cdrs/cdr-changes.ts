import { deferredStatement } from '../db/statement-pipelining';

/**
 * What happened to a record. Other features add their own kinds (a transcript, a classification):
 * the feed renders the record as it is whatever the kind says.
 */
export type CdrChangeKind = 'created' | 'outcome' | 'spam' | 'masked' | 'erased' | 'deleted' | (string & {});

/** One changed record: which one, and its `start`, so the feed reads it from its one partition. */
export interface CdrChange {
  partnerId: string;
  cdrId: string;
  start: Date;
  kind: CdrChangeKind;
}

/** Anything that runs SQL in the writer's transaction: an EntityManager, a QueryRunner. */
export interface ChangeWriter {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** `txid` is the writing transaction's id; as bigint it orders and indexes like any number. */
const CHANGE_COLUMNS = `"txid", "partner_id", "cdr_id", "start", "kind", "changed_at"`;
const CHANGE_VALUES = `pg_current_xact_id()::text::bigint`;

/**
 * Notes changes of call records for the change feed (docs/cdrs.md, Change feed). Every writer of
 * "cdrs" calls it with the manager of the transaction that changes the records, so the change is
 * in the feed exactly when the change is committed. One multi-row INSERT, sent with the writer's
 * next statement (db/statement-pipelining.ts): ingestion pays no round trip for it.
 */
export async function recordCdrChange(manager: ChangeWriter, changes: readonly CdrChange[]): Promise<void> {
  if (changes.length === 0) return;
  await manager.query(
    deferredStatement(`INSERT INTO "cdr_changes" (${CHANGE_COLUMNS})
       SELECT ${CHANGE_VALUES}, "p", "c", "s", "k", now()
         FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::varchar[]) AS "given"("p", "c", "s", "k")`),
    [
      changes.map((change) => change.partnerId),
      changes.map((change) => change.cdrId),
      changes.map((change) => change.start),
      changes.map((change) => change.kind),
    ],
  );
}

/**
 * `recordCdrChange` for records a query selects, for writers whose records are too many to pass
 * (a dropped month): `select` yields `"partner_id", "id", "start"` of the changed records.
 */
export async function recordCdrChangesOf(
  manager: ChangeWriter,
  kind: CdrChangeKind,
  select: string,
  parameters: unknown[] = [],
): Promise<void> {
  const kindParameter = `$${parameters.length + 1}`;
  await manager.query(
    `INSERT INTO "cdr_changes" (${CHANGE_COLUMNS})
     SELECT ${CHANGE_VALUES}, "changed"."partner_id", "changed"."id", "changed"."start", ${kindParameter}, now()
       FROM (${select}) AS "changed"`,
    [...parameters, kind],
  );
}
