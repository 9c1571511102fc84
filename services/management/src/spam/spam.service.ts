import { NotFoundError, readPhoneNumber, ValidationError, type CountryCode } from '@trackline/domain';
import type { Paging } from '../validation/paging';
import type { RedisSpamListsProjection, SpamList, SpamListsStore, SpamNumber } from './spam-lists.store';

/** The partner a list belongs to, as the request authenticated it. */
export interface ListOwner {
  id: string;
  /** The advId: the Redis projection's hash tag. */
  name: string;
  country: CountryCode;
}

/**
 * The partner's block and allow lists (docs/spam.md, Lists): numbers read by the one number reader
 * in the partner's country, so `+4791234567`, `0047 912 34 567` and `912 34 567` are one entry.
 */
export class SpamListsService {
  constructor(
    private readonly store: SpamListsStore,
    private readonly projection: Pick<RedisSpamListsProjection, 'put' | 'remove'>,
  ) {}

  page(owner: ListOwner, list: SpamList, paging: Paging): Promise<{ numbers: SpamNumber[]; total: number }> {
    return this.store.page(owner.id, list, paging);
  }

  async put(owner: ListOwner, list: SpamList, number: string): Promise<SpamNumber> {
    const e164 = readListNumber(number, owner.country);
    const stored = await this.store.put(owner.id, list, e164);
    await this.projection.put(owner.name, list, e164);
    return stored;
  }

  async remove(owner: ListOwner, list: SpamList, number: string): Promise<SpamNumber> {
    const e164 = readListNumber(number, owner.country);
    const removed = await this.store.remove(owner.id, list, e164);
    if (removed === null) throw new NotFoundError(`${e164} on the ${list} list`);
    await this.projection.remove(owner.name, e164);
    return removed;
  }
}

function readListNumber(value: string, country: CountryCode): string {
  const e164 = readPhoneNumber(value, country);
  if (e164 === undefined) throw new ValidationError('number', 'must be a phone number');
  return e164;
}
