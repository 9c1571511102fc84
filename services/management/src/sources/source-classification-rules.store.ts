import type { ClassificationRules } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { readStoredClassificationRules } from '../partners/stored-classification-rules';

/** A source's own classification rules (docs/call-intelligence.md, API); the sources feature owns the column. */
export interface SourceClassificationRulesStore {
  /** Null when the partner has no such source; `rules` null while the partner's apply. */
  findClassificationRules(
    partnerId: string,
    sourceId: string,
  ): Promise<{ rules: ClassificationRules | null } | null>;
  /** Null returns the source to the partner's rules. False when the partner has no such source. */
  setClassificationRules(
    partnerId: string,
    sourceId: string,
    rules: ClassificationRules | null,
  ): Promise<boolean>;
}

type Row = Record<string, unknown>;

export class TypeormSourceClassificationRulesStore implements SourceClassificationRulesStore {
  constructor(private readonly manager: EntityManager) {}

  async findClassificationRules(
    partnerId: string,
    sourceId: string,
  ): Promise<{ rules: ClassificationRules | null } | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT "classification_rules" FROM "sources" WHERE "partner_id" = $1 AND "id" = $2`,
      [partnerId, sourceId],
    );
    const row = rows[0];
    return row === undefined ? null : { rules: readStoredClassificationRules(row.classification_rules) };
  }

  async setClassificationRules(
    partnerId: string,
    sourceId: string,
    rules: ClassificationRules | null,
  ): Promise<boolean> {
    const rows: Row[] = await this.manager.query(
      `WITH "changed" AS (
         UPDATE "sources" SET "classification_rules" = $3::jsonb WHERE "partner_id" = $1 AND "id" = $2
         RETURNING 1)
       SELECT count(*)::int AS "count" FROM "changed"`,
      [partnerId, sourceId, rules === null ? null : JSON.stringify(rules)],
    );
    return (rows[0]?.count as number) > 0;
  }
}
