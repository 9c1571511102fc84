import { canonicalAnum, readAnum } from '@trackline/contracts';
import { isCountryCode } from '@trackline/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 5_000;

// `start` as Postgres prints it: a JS Date would drop its microseconds and miss the row.
type Row = { id: string; start: string; anum: string; cnum: string | null; country: string };

/**
 * Callers (`cdrs.anum`, `cdrs.cnum`) were stored as the switch sent them ("91234567", "004791234567",
 * "Restricted"); every edge now stores them in one form (docs/switch.md, "Numbers"). Converting a
 * national number needs the partner's country and the phone-number rules, so rows are read and
 * rewritten here in TypeScript, in batches by id, and only rows not already in a stored form are
 * read. The missed-call and voicemail texts of a converted record name the caller the way the record
 * did; they get the new form too. `bnum` and the numbers of sources, campaigns and partners were
 * E.164 from the start.
 *
 * Not reversible: the spellings are gone, and the one form reads as the same number. `down` leaves
 * the rows as they are.
 */
export class CanonicalCallerNumbers1795480000010 implements MigrationInterface {
  name = 'CanonicalCallerNumbers1795480000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    let after = '0';
    for (;;) {
      // E.164, the withheld form and masked numbers (they hold "x") are stored forms already.
      const rows = (await queryRunner.query(
        `SELECT c."id"::text AS "id", c."start"::text AS "start", c."anum", c."cnum", p."country"
           FROM "cdrs" c JOIN "partners" p ON p."id" = c."partner_id"
          WHERE c."id" > $1::bigint
            AND (NOT (c."anum" ~ '^\\+[1-9][0-9]{1,14}$' OR c."anum" = 'anonymous' OR c."anum" LIKE '%x%')
                 OR NOT (c."cnum" IS NULL OR c."cnum" ~ '^\\+[1-9][0-9]{1,14}$' OR c."cnum" = 'anonymous'
                         OR c."cnum" LIKE '%x%'))
          ORDER BY c."id"
          LIMIT ${BATCH}`,
        [after],
      )) as Row[];
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.id;
      const changed = rows.flatMap((row) => {
        const anum = storedForm(row.anum, row.country);
        const cnum = row.cnum === null ? null : storedForm(row.cnum, row.country);
        return anum === row.anum && cnum === row.cnum ? [] : [{ ...row, newAnum: anum, newCnum: cnum }];
      });
      if (changed.length === 0) continue;
      await queryRunner.query(
        `UPDATE "cdrs" c SET "anum" = u."anum", "cnum" = u."cnum"
           FROM unnest($1::bigint[], $2::timestamptz[], $3::varchar[], $4::varchar[]) AS u("id", "start", "anum", "cnum")
          WHERE c."id" = u."id" AND c."start" = u."start"`,
        [
          changed.map((row) => row.id),
          changed.map((row) => row.start),
          changed.map((row) => row.newAnum),
          changed.map((row) => row.newCnum),
        ],
      );
      // The texts say "… from <caller> …": only that spelling after "from " is rewritten.
      const renamed = changed.filter((row) => row.newAnum !== row.anum);
      if (renamed.length > 0)
        await queryRunner.query(
          `UPDATE "notification_outbox" o
              SET "payload" = regexp_replace(o."payload"::text, 'from ' || u."pattern" || '(?![0-9])',
                                             'from ' || u."anum", 'g')::jsonb
             FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u("cdr_id", "pattern", "anum")
            WHERE o."cdr_id" = u."cdr_id"`,
          [
            renamed.map((row) => row.id),
            renamed.map((row) => row.anum.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
            renamed.map((row) => row.newAnum),
          ],
        );
    }
  }

  async down(): Promise<void> {
    // Nothing to undo that could be undone: see the class comment.
  }
}

/** What ingestion stores for a caller the switch sent as `sent`, read in the partner's country. */
function storedForm(sent: string, country: string): string {
  const read = readAnum(sent);
  // A value no rule accepts today was stored by an older version: left as it is.
  if ('problem' in read || !isCountryCode(country)) return sent;
  return canonicalAnum(read.anum, country);
}
