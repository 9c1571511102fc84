import { NotFoundError } from '@trackline/domain';
import type { CarrierAccount } from './carrier-account';
import { parseCarrierAccountPut } from './carrier-account.dto';
import type { CarrierAccountsStore } from './carrier-accounts.store';

/**
 * GET/PUT/DELETE /carrier_account and `carrier:set` (docs/carrier-numbers.md, Credentials): a
 * setting of the partner's account, so PUT sets it up the first time.
 */
export class CarrierAccountsService {
  constructor(private readonly store: CarrierAccountsStore) {}

  async get(partnerId: string): Promise<CarrierAccount> {
    const found = await this.store.find(partnerId);
    if (found === null) throw notSetUp();
    return found;
  }

  async put(partnerId: string, body: Record<string, unknown>, now: Date): Promise<CarrierAccount> {
    const account = parseCarrierAccountPut(body, await this.store.find(partnerId), now);
    await this.store.save(partnerId, account);
    return account;
  }

  /** The numbers stay at the carrier and in the inventory; only buying and releasing stop. */
  async remove(partnerId: string): Promise<CarrierAccount> {
    const current = await this.get(partnerId);
    if (!(await this.store.remove(partnerId))) throw notSetUp();
    return current;
  }
}

function notSetUp(): NotFoundError {
  return new NotFoundError('carrier account (not set up)');
}
