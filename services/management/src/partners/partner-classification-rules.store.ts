import type { ClassificationRules } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { readStoredClassificationRules } from './stored-classification-rules';

/** A partner's own classification rules (docs/call-intelligence.md, API); the partners feature owns the column. */
export interface PartnerClassificationRulesStore {
  /** Null when the partner has none: the built-in rules apply. */
  findClassificationRules(partnerId: string): Promise<ClassificationRules | null>;
  /** Null returns the partner to the built-in rules. */
  setClassificationRules(partnerId: string, rules: ClassificationRules | null): Promise<void>;
}

type Row = Record<string, unknown>;

export class TypeormPartnerClassificationRulesStore implements PartnerClassificationRulesStore {
  constructor(private readonly manager: EntityManager) {}

  async findClassificationRules(partnerId: string): Promise<ClassificationRules | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT "classification_rules" FROM "partners" WHERE "id" = $1`,
      [partnerId],
    );
    return readStoredClassificationRules(rows[0]?.classification_rules);
  }

  async setClassificationRules(partnerId: string, rules: ClassificationRules | null): Promise<void> {
    await this.manager.query(`UPDATE "partners" SET "classification_rules" = $2::jsonb WHERE "id" = $1`, [
      partnerId,
      rules === null ? null : JSON.stringify(rules),
    ]);
  }
}
