import { canonicalAnum, readAnum } from '@trackline/contracts';
import { isCountryCode, readPhoneNumber } from '@trackline/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 5_000;

// What needs no conversion: E.164, the withheld form, and masked numbers (they hold "x", which no
// spelling of a number does).
const E164_SQL = `'^\\+[1-9][0-9]{1,14}$'`;
const storedCallerSql = (column: string): string =>
  `(${column} ~ ${E164_SQL} OR ${column} = 'anonymous' OR ${column} LIKE '%x%')`;

type CdrRow = {
  id: string;
  /** As text, so the partition key is matched to the microsecond. */
  start: string;
  anum: string;
  bnum: string;
  cnum: string | null;
  country: string;
};

type SourceRow = {
  id: string;
  phonenr: string;
  smsnumber: string | null;
  alt_numbers: Array<{ phonenr: string } & Record<string, unknown>>;
  country: string;
};

/**
 * Every stored number in its one form (docs/numbers-and-sources.md, "One form of a number"). Callers
 * (`cdrs.anum`, `cdrs.cnum`) were stored as the switch sent them ("91234567", "004791234567",
 * "Restricted"); they become what ingestion stores now, read in the partner's country. `cdrs.bnum`
 * and the numbers of sources (`phonenr`, `smsnumber`, the `alt_numbers` targets) were E.164 from the
 * start; one not in that form is converted the same way. Converting a national number needs the
 * phone-number rules, so rows are read and rewritten here in TypeScript, in batches by id, and only
 * rows not already in a stored form are read: a second run finds nothing to do.
 *
 * The missed-call and voicemail texts of a converted record name the caller the way the record did
 * ("Missed call from 91234567"); they get the new form too. Webhook deliveries keep the body they
 * were signed and sent with: a retry must carry the same body under the same `webhook-id`.
 *
 * Not reversible: the spellings are gone, and the one form reads as the same number. `down` leaves
 * the rows as they are.
 */
export class CanonicalCallerNumbers1795480000010 implements MigrationInterface {
  name = 'CanonicalCallerNumbers1795480000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await convertCdrs(queryRunner);
    await convertSources(queryRunner);
  }

  async down(): Promise<void> {
    // Nothing to undo that could be undone: see the class comment.
  }
}

async function convertCdrs(queryRunner: QueryRunner): Promise<void> {
  let after = '0';
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT c."id"::text AS "id", c."start"::text AS "start", c."anum", c."bnum", c."cnum", p."country"
         FROM "cdrs" c JOIN "partners" p ON p."id" = c."partner_id"
        WHERE c."id" > $1::bigint
          AND NOT (${storedCallerSql('c."anum"')} AND c."bnum" ~ ${E164_SQL}
                   AND (c."cnum" IS NULL OR ${storedCallerSql('c."cnum"')}))
        ORDER BY c."id"
        LIMIT ${BATCH}`,
      [after],
    )) as CdrRow[];
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const changed = rows.flatMap((row) => {
      const anum = storedCaller(row.anum, row.country);
      const bnum = storedNumber(row.bnum, row.country);
      const cnum = row.cnum === null ? null : storedCaller(row.cnum, row.country);
      return anum === row.anum && bnum === row.bnum && cnum === row.cnum
        ? []
        : [{ ...row, newAnum: anum, newBnum: bnum, newCnum: cnum }];
    });
    if (changed.length === 0) continue;
    await queryRunner.query(
      `UPDATE "cdrs" c SET "anum" = u."anum", "bnum" = u."bnum", "cnum" = u."cnum"
         FROM unnest($1::bigint[], $2::timestamptz[], $3::varchar[], $4::varchar[], $5::varchar[])
              AS u("id", "start", "anum", "bnum", "cnum")
        WHERE c."id" = u."id" AND c."start" = u."start"`,
      [
        changed.map((row) => row.id),
        changed.map((row) => row.start),
        changed.map((row) => row.newAnum),
        changed.map((row) => row.newBnum),
        changed.map((row) => row.newCnum),
      ],
    );
    // The texts say "… from <caller> …": only that spelling after "from " is rewritten, not the
    // called number that may end in the same digits.
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

async function convertSources(queryRunner: QueryRunner): Promise<void> {
  let after = '0';
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT s."id"::text AS "id", s."phonenr", s."smsnumber", s."alt_numbers", p."country"
         FROM "sources" s JOIN "partners" p ON p."id" = s."partner_id"
        WHERE s."id" > $1::bigint
          AND (NOT s."phonenr" ~ ${E164_SQL}
               OR NOT (s."smsnumber" IS NULL OR s."smsnumber" ~ ${E164_SQL})
               OR EXISTS (SELECT 1 FROM jsonb_array_elements(s."alt_numbers") a
                           WHERE a->>'phonenr' <> 'voicemail' AND NOT (a->>'phonenr') ~ ${E164_SQL}))
        ORDER BY s."id"
        LIMIT ${BATCH}`,
      [after],
    )) as SourceRow[];
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const altNumbers = row.alt_numbers.map((rule) =>
        rule.phonenr === 'voicemail' ? rule : { ...rule, phonenr: storedNumber(rule.phonenr, row.country) },
      );
      await queryRunner.query(
        `UPDATE "sources" SET "phonenr" = $2, "smsnumber" = $3, "alt_numbers" = $4::jsonb WHERE "id" = $1`,
        [
          row.id,
          storedNumber(row.phonenr, row.country),
          row.smsnumber === null ? null : storedNumber(row.smsnumber, row.country),
          JSON.stringify(altNumbers),
        ],
      );
    }
  }
}

/** What ingestion stores for a caller the switch sent as `sent`, read in the partner's country. */
function storedCaller(sent: string, country: string): string {
  const read = readAnum(sent);
  // A value no rule accepts today was stored by an older version: left as it is.
  if ('problem' in read || !isCountryCode(country)) return sent;
  return canonicalAnum(read.anum, country);
}

/** A number read in the partner's country as every edge reads it now; left as it is when it is not one. */
function storedNumber(stored: string, country: string): string {
  if (!isCountryCode(country)) return stored;
  return readPhoneNumber(stored, country) ?? stored;
}
