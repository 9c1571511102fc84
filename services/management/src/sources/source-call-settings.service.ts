import { NotFoundError } from '@trackline/domain';
import { NO_SOURCE_CALL_SETTINGS, type SourceCallSettings } from '../partners/call-intelligence-settings';
import { isBigintId } from '../validation/record-id';
import type { SourceChangeListener } from './source-change-listener';
import type { SourceCallSettingsStore } from './sources.store';

/**
 * A source's own recording, consent announcement and transcription settings (docs/telephony.md,
 * Recording answered calls), each overriding its partner's. Open and closed sources alike: a
 * closed source's number still answers during its hold-back.
 */
export class SourceCallSettingsService {
  constructor(
    private readonly store: SourceCallSettingsStore,
    /** Told after each change: the voice webhook reads recording settings from the source's route in Redis. */
    private readonly listeners: readonly SourceChangeListener[],
  ) {}

  async get(partnerId: string, sourceId: string): Promise<SourceCallSettings> {
    const found = isBigintId(sourceId) ? await this.store.findCallSettings(partnerId, sourceId) : null;
    if (found === null) throw notFound(sourceId);
    return found;
  }

  /** Every field is replaced; null leaves it to the partner. */
  async set(partnerId: string, sourceId: string, settings: SourceCallSettings): Promise<void> {
    if (!isBigintId(sourceId) || !(await this.store.setCallSettings(partnerId, sourceId, settings))) {
      throw notFound(sourceId);
    }
    for (const listener of this.listeners) await listener.sourceChanged(partnerId, sourceId);
  }

  clear(partnerId: string, sourceId: string): Promise<void> {
    return this.set(partnerId, sourceId, NO_SOURCE_CALL_SETTINGS);
  }
}

function notFound(sourceId: string): NotFoundError {
  return new NotFoundError(`source ${sourceId}`);
}
