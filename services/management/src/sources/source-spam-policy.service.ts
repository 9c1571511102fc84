import { NotFoundError } from '@trackline/domain';
import type { SourceSpamPolicy } from '@trackline/contracts';
import { isBigintId } from '../validation/record-id';
import type { SourceChangeListener } from './source-change-listener';
import type { SourceSpamPolicies } from './sources.store';

/**
 * A source's own spam policy (docs/spam.md, Per source). Open and closed sources alike: a closed
 * source's number still answers during its hold-back, and its calls are judged by this policy.
 */
export class SourceSpamPolicyService {
  constructor(
    private readonly store: SourceSpamPolicies,
    /** Told after each change, so the source's route in Redis carries it (the projections among them). */
    private readonly listeners: readonly SourceChangeListener[],
  ) {}

  /** Null: the partner's policy applies. */
  async get(partnerId: string, sourceId: string): Promise<SourceSpamPolicy | null> {
    const found = isBigintId(sourceId) ? await this.store.findSpamPolicy(partnerId, sourceId) : null;
    if (found === null) throw notFound(sourceId);
    return found.spamPolicy;
  }

  /** Null returns the source to the partner's policy. */
  async set(partnerId: string, sourceId: string, spamPolicy: SourceSpamPolicy | null): Promise<void> {
    if (!isBigintId(sourceId) || !(await this.store.setSpamPolicy(partnerId, sourceId, spamPolicy))) {
      throw notFound(sourceId);
    }
    for (const listener of this.listeners) await listener.sourceChanged(partnerId, sourceId);
  }
}

function notFound(sourceId: string): NotFoundError {
  return new NotFoundError(`source ${sourceId}`);
}
