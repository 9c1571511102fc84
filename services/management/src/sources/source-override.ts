import { NotFoundError } from '@trackline/domain';
import { isBigintId } from '../validation/record-id';
import type { SourceChangeListener } from './source-change-listener';

/**
 * A setting a source holds over its partner's: its spam policy (docs/spam.md, Per source) and its
 * call settings (docs/telephony.md, Recording answered calls). The sources feature owns the columns.
 */
export interface SourceOverrideStore<Setting> {
  /** Null when the partner has no such source. */
  find(partnerId: string, sourceId: string): Promise<{ setting: Setting } | null>;
  /** Replaces the whole setting. False when the partner has no such source. */
  replace(partnerId: string, sourceId: string, setting: Setting): Promise<boolean>;
}

/**
 * Reads and replaces a source's own setting, for open and closed sources alike: a closed source's
 * number still answers during its hold-back, under these settings. A source of another partner is
 * not found, and stays as it was.
 */
export class SourceOverrideService<Setting> {
  constructor(
    private readonly store: SourceOverrideStore<Setting>,
    /** The value that leaves every part of the setting to the partner's (what DELETE sets). */
    readonly partnersOwn: Setting,
    /** Told after each change: the source's route in Redis carries the setting (the projections among them). */
    private readonly listeners: readonly SourceChangeListener[],
  ) {}

  async get(partnerId: string, sourceId: string): Promise<Setting> {
    const found = isBigintId(sourceId) ? await this.store.find(partnerId, sourceId) : null;
    if (found === null) throw notFound(sourceId);
    return found.setting;
  }

  async set(partnerId: string, sourceId: string, setting: Setting): Promise<void> {
    if (!isBigintId(sourceId) || !(await this.store.replace(partnerId, sourceId, setting))) {
      throw notFound(sourceId);
    }
    for (const listener of this.listeners) await listener.sourceChanged(partnerId, sourceId);
  }

  /** Back to the partner's, every part. */
  clear(partnerId: string, sourceId: string): Promise<void> {
    return this.set(partnerId, sourceId, this.partnersOwn);
  }
}

function notFound(sourceId: string): NotFoundError {
  return new NotFoundError(`source ${sourceId}`);
}
