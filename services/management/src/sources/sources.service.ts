import { randomBytes } from 'node:crypto';
import {
  ForbiddenError,
  NotFoundError,
  ValidationError,
  type AltNumberRule,
  type ParsedAltNumber,
} from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { NumbersStore, StaticNumberAllocator } from '../numbers/numbers.store';
import { holdBackEnd } from '../numbers/tracking-number';
import type { SourceChangeListener } from './source-change-listener';
import type { SourceReferences } from './source-references.store';
import type { Source, SourceChangesInput, SourceInput, SourceListQuery, SourcePage } from './source';
import { isBigintId } from '../validation/record-id';
import type { SourcesStore } from './sources.store';

/** What a source write touches inside one transaction. */
export interface SourceWriteStores {
  sources: SourcesStore;
  numbers: StaticNumberAllocator & Pick<NumbersStore, 'findTaken'>;
  references: SourceReferences;
}

/** The 400 rule for an answering number that is one of the platform's tracking numbers. */
export const TRACKING_NUMBER_LOOP_RULE = 'must not be a tracking number (calls to it would loop)';

export const NO_TRACKING_NUMBER = 'No tracking number available';

/** 12 hex characters: unique enough among one source's rules, short enough to read back. */
export function randomAltKey(): string {
  return randomBytes(6).toString('hex');
}

export class SourcesService {
  constructor(
    private readonly sources: SourcesStore,
    private readonly writes: UnitOfWork<SourceWriteStores>,
    /** Told after each committed change (the Redis projections among them). */
    private readonly listeners: readonly SourceChangeListener[],
    private readonly newAltKey: () => string = randomAltKey,
  ) {}

  list(partnerId: string, query: SourceListQuery): Promise<SourcePage> {
    return this.sources.page(partnerId, query);
  }

  async get(partnerId: string, sourceId: string): Promise<Source> {
    const source = isBigintId(sourceId) ? await this.sources.findById(partnerId, sourceId) : null;
    if (source === null) throw notFound(sourceId);
    return source;
  }

  /** Assigns the static number free the longest as destnr; 403 when the partner has none free. */
  async create(partnerId: string, input: SourceInput, now: Date): Promise<Source> {
    const source = await this.writes.run(async ({ sources, numbers, references }) => {
      if (!isBigintId(input.customerId) || !(await references.lockCustomer(partnerId, input.customerId))) {
        throw new NotFoundError(`customer ${input.customerId}`);
      }
      await checkOwnedReferences(references, partnerId, input.customerId, input);
      await refuseTrackingNumbers(numbers, input);
      const destnr = await numbers.claimStaticNumber(partnerId, now);
      if (destnr === null) throw new ForbiddenError(NO_TRACKING_NUMBER);
      return sources.insert(partnerId, {
        ...input,
        destnr,
        activatedAt: now,
        altNumbers: this.keyRules(input.altNumbers),
      });
    });
    await this.notify(partnerId, source.id);
    return source;
  }

  /** Keys left out keep their value; alt_numbers, when sent, replace all rules. A closed source is 403. */
  async update(partnerId: string, sourceId: string, changes: SourceChangesInput): Promise<Source> {
    if (!isBigintId(sourceId)) throw notFound(sourceId);
    const updated = await this.writes.run(async ({ sources, references, numbers }) => {
      const current = await sources.findById(partnerId, sourceId, { lock: true });
      if (current === null) throw notFound(sourceId);
      if (current.status === 'closed') throw new ForbiddenError(`Source ${sourceId} is closed`);
      await checkOwnedReferences(references, partnerId, current.customerId, changes);
      await refuseTrackingNumbers(numbers, changes);
      const { altNumbers, ...rest } = changes;
      const stored = await sources.update(partnerId, sourceId, {
        ...rest,
        ...(altNumbers === undefined ? {} : { altNumbers: this.keyRules(altNumbers) }),
      });
      if (stored === null) throw notFound(sourceId);
      return stored;
    });
    await this.notify(partnerId, updated.id);
    return updated;
  }

  /**
   * DELETE closes the source: status closed, and its tracking number is held back 30 days before
   * another source gets it. Closing a closed source changes nothing (the hold-back does not restart).
   */
  async close(partnerId: string, sourceId: string, now: Date): Promise<Source> {
    if (!isBigintId(sourceId)) throw notFound(sourceId);
    const { source, changed } = await this.writes.run(async ({ sources, numbers }) => {
      const current = await sources.findById(partnerId, sourceId, { lock: true });
      if (current === null) throw notFound(sourceId);
      if (current.status === 'closed') return { source: current, changed: false };
      const closed = await sources.close(partnerId, sourceId, now);
      if (closed === null) throw notFound(sourceId);
      await numbers.holdBack(partnerId, closed.destnr, holdBackEnd(now));
      return { source: closed, changed: true };
    });
    if (changed) await this.notify(partnerId, source.id);
    return source;
  }

  private async notify(partnerId: string, sourceId: string): Promise<void> {
    for (const listener of this.listeners) await listener.sourceChanged(partnerId, sourceId);
  }

  /** Rules sent with an alt_key keep it; the others get a new key no rule of the list uses. */
  private keyRules(rules: readonly ParsedAltNumber[]): AltNumberRule[] {
    const used = new Set(rules.flatMap((rule) => (rule.altKey === undefined ? [] : [rule.altKey])));
    return rules.map((rule) => {
      let altKey = rule.altKey;
      while (altKey === undefined || (rule.altKey === undefined && used.has(altKey)))
        altKey = this.newAltKey();
      used.add(altKey);
      return { phonenr: rule.phonenr, ...rule.window, altKey };
    });
  }
}

/** campaign_id and vm_greeting_id must name one of the source's customer's own (a 400 otherwise). */
async function checkOwnedReferences(
  references: SourceReferences,
  partnerId: string,
  customerId: string,
  values: { campaignId?: string | null; vmGreetingId?: string | null },
): Promise<void> {
  const { campaignId, vmGreetingId } = values;
  if (campaignId !== undefined && campaignId !== null) {
    const owner = isBigintId(campaignId) ? await references.lockCampaign(partnerId, campaignId) : null;
    if (owner !== customerId) {
      throw new ValidationError('campaign_id', `must name a campaign of customer ${customerId}`);
    }
  }
  if (vmGreetingId !== undefined && vmGreetingId !== null) {
    const owner = isBigintId(vmGreetingId) ? await references.lockGreeting(partnerId, vmGreetingId) : null;
    if (owner !== customerId) {
      throw new ValidationError('vm_greeting_id', `must name a voicemail greeting of customer ${customerId}`);
    }
  }
}

/**
 * No call loops (docs/numbers-and-sources.md): a source's phonenr and its alt_numbers ring phones,
 * never a tracking number of any partner, which would route the call back into the platform. The
 * owner is not named, so other partners' inventories cannot be probed.
 */
async function refuseTrackingNumbers(
  numbers: Pick<NumbersStore, 'findTaken'>,
  values: { phonenr?: string; altNumbers?: readonly ParsedAltNumber[] },
): Promise<void> {
  const answering = [
    ...(values.phonenr === undefined ? [] : [{ field: 'phonenr', number: values.phonenr }]),
    ...(values.altNumbers ?? []).map((rule, index) => ({
      field: `alt_numbers[${index}].phonenr`,
      number: rule.phonenr,
    })),
  ];
  if (answering.length === 0) return;
  const taken = new Set(
    (await numbers.findTaken([...new Set(answering.map((entry) => entry.number))])).map((t) => t.e164),
  );
  const loop = answering.find((entry) => taken.has(entry.number));
  if (loop !== undefined) throw new ValidationError(loop.field, TRACKING_NUMBER_LOOP_RULE);
}

function notFound(sourceId: string): NotFoundError {
  return new NotFoundError(`source ${sourceId}`);
}
