import { toStorableText, type CallAttribution } from '@trackline/contracts';
import { customerSeenValues } from '../customer-events/customer-seen-values';
import type { CustomersStore } from '../customers/customers.store';
import type { DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import { sessionCustnr, type CdrBatchLookup } from './cdr-batch-lookup';
import type { CdrWriteStore } from './cdrs.store';

/** The record's customer; `created` when ingestion created it (a `customer.created` webhook follows). */
export interface CdrCustomer {
  id: string;
  custnr: string;
  created?: boolean;
}

/**
 * Whose call it is (docs/cdrs.md, "Whose call it is"): a pool-number call whose session named a
 * custnr belongs to that customer, created on the spot when the customer-seen stream has not
 * delivered it yet; any other call to the customer of its source, if it has one. Inside the record's
 * transaction: the customer chosen stays until the record commits.
 */
export async function chooseCustomer(
  cdrs: Pick<CdrWriteStore, 'lockCustomer'>,
  customers: Pick<CustomersStore, 'ensureSeen'>,
  lookup: Pick<CdrBatchLookup, 'customerId'>,
  dialled: DialledNumber,
  attribution: CallAttribution | null,
  source: CdrSource | null,
): Promise<CdrCustomer | null> {
  const custnr = dialled.kind === 'pool' && attribution !== null ? sessionCustnr(attribution) : null;
  if (custnr === null) {
    if (source === null) return null;
    // Deleted since the batch looked the source up: the record stays unattributed rather than orphaned.
    return (await keeps(cdrs, dialled, source.customerId, source))
      ? { id: source.customerId, custnr: source.custnr }
      : null;
  }
  if (source !== null && source.custnr === custnr && (await keeps(cdrs, dialled, source.customerId, source)))
    return { id: source.customerId, custnr };
  const known = lookup.customerId(dialled.partnerId, custnr);
  if (known !== undefined && (await keeps(cdrs, dialled, known, null))) return { id: known, custnr };
  const custname = attribution?.parameters?.custname;
  const custemail = attribution?.parameters?.custemail;
  const { seen } = customerSeenValues({
    advId: dialled.advId,
    custnr,
    at: 0,
    ...(typeof custname === 'string' ? { custname: toStorableText(custname) } : {}),
    ...(typeof custemail === 'string' ? { custemail: toStorableText(custemail) } : {}),
  });
  const { id, created } = await customers.ensureSeen(dialled.partnerId, custnr, seen);
  if (!(await cdrs.lockCustomer(dialled.partnerId, id)))
    throw new Error(`customer ${custnr} was deleted while its call was stored`);
  return { id, custnr, created };
}

/**
 * Whether the customer is still there and stays until the record commits. A customer with an open
 * source cannot be deleted (docs/cdrs.md, "Deleting a customer"), so a call on an open source needs
 * no lock; any other customer gets a key-share lock, which a concurrent delete waits for.
 */
async function keeps(
  cdrs: Pick<CdrWriteStore, 'lockCustomer'>,
  dialled: DialledNumber,
  customerId: string,
  source: CdrSource | null,
): Promise<boolean> {
  if (source !== null && source.status === 'active' && source.customerId === customerId) return true;
  return cdrs.lockCustomer(dialled.partnerId, customerId);
}
