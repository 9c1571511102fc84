import { DEFAULT_CLASSIFICATION_RULES, NotFoundError, type ClassificationRules } from '@trackline/domain';
import type { PartnerClassificationRulesStore } from '../partners/partner-classification-rules.store';
import type { SourceClassificationRulesStore } from '../sources/source-classification-rules.store';
import { isBigintId } from '../validation/record-id';
import { parseClassificationRulesPut } from './classification-rules.dto';

/** The rules in force and whose they are. */
export interface RulesInForce {
  rules: ClassificationRules;
  /** The built-in rules apply: neither the partner nor (for a source) the source set any. */
  builtin: boolean;
  /** For a source: the source set its own, replacing the partner's. */
  own: boolean;
}

/**
 * GET|PUT|DELETE /classification_rules and /sources/<source_id>/classification_rules
 * (docs/call-intelligence.md, API): a source's rules replace its partner's, a partner's replace the
 * built-in ones; a DELETE returns to the rules below. A PUT's lists left out keep the lists in force.
 */
export class ClassificationRulesService {
  constructor(
    private readonly partners: PartnerClassificationRulesStore,
    private readonly sources: SourceClassificationRulesStore,
  ) {}

  async partnerRules(partnerId: string): Promise<RulesInForce> {
    const own = await this.partners.findClassificationRules(partnerId);
    return { rules: own ?? DEFAULT_CLASSIFICATION_RULES, builtin: own === null, own: own !== null };
  }

  async putPartnerRules(partnerId: string, body: Record<string, unknown>): Promise<RulesInForce> {
    const rules = parseClassificationRulesPut(body, (await this.partnerRules(partnerId)).rules);
    await this.partners.setClassificationRules(partnerId, rules);
    return { rules, builtin: false, own: true };
  }

  async deletePartnerRules(partnerId: string): Promise<RulesInForce> {
    await this.partners.setClassificationRules(partnerId, null);
    return this.partnerRules(partnerId);
  }

  async sourceRules(partnerId: string, sourceId: string): Promise<RulesInForce> {
    const found = isBigintId(sourceId)
      ? await this.sources.findClassificationRules(partnerId, sourceId)
      : null;
    if (found === null) throw notFound(sourceId);
    if (found.rules !== null) return { rules: found.rules, builtin: false, own: true };
    return { ...(await this.partnerRules(partnerId)), own: false };
  }

  async putSourceRules(
    partnerId: string,
    sourceId: string,
    body: Record<string, unknown>,
  ): Promise<RulesInForce> {
    const rules = parseClassificationRulesPut(body, (await this.sourceRules(partnerId, sourceId)).rules);
    if (!(await this.sources.setClassificationRules(partnerId, sourceId, rules))) throw notFound(sourceId);
    return { rules, builtin: false, own: true };
  }

  async deleteSourceRules(partnerId: string, sourceId: string): Promise<RulesInForce> {
    if (!isBigintId(sourceId) || !(await this.sources.setClassificationRules(partnerId, sourceId, null)))
      throw notFound(sourceId);
    return { ...(await this.partnerRules(partnerId)), own: false };
  }
}

// Another partner's source is as unknown as a missing one.
function notFound(sourceId: string): NotFoundError {
  return new NotFoundError(`source ${sourceId}`);
}
