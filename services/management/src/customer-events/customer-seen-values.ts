import { isEmail } from 'class-validator';
import { characterCount, type CustomerSeenEvent } from '@trackline/contracts';
import { CUSTOMER_LIMITS } from '../customers/customers.dto';
import type { CustomerSeen } from '../customers/customers.store';

export interface CustomerSeenValues {
  /** What can be stored; a key left out keeps the stored value. */
  seen: CustomerSeen;
  /** Values that were sent but cannot be stored, for the log ("custemail: not a valid e-mail address"). */
  rejected: string[];
}

/**
 * The customer values an event carries, by the same rules as the customer API (docs/partner-api.md, Customers
 * seen on partners' pages: name ≤ 60, a valid e-mail ≤ 150). A visitor's request is not the partner's API
 * call, so a bad value is not a reason to drop the whole event: what is valid is stored, the rest is
 * reported. Blank values count as "not sent" — a page without the visitor's name must not wipe the name the
 * partner stored.
 */
export function customerSeenValues(event: CustomerSeenEvent): CustomerSeenValues {
  const seen: CustomerSeen = {};
  const rejected: string[] = [];
  const name = event.custname?.trim();
  if (name !== undefined && name !== '') {
    if (characterCount(name) > CUSTOMER_LIMITS.name) {
      rejected.push(`custname: must be at most ${CUSTOMER_LIMITS.name} characters`);
    } else {
      seen.name = name;
    }
  }
  const email = event.custemail?.trim();
  if (email !== undefined && email !== '') {
    if (characterCount(email) > CUSTOMER_LIMITS.email) {
      rejected.push(`custemail: must be at most ${CUSTOMER_LIMITS.email} characters`);
    } else if (!isEmail(email)) {
      rejected.push('custemail: must be a valid e-mail address');
    } else {
      seen.email = email;
    }
  }
  return { seen, rejected };
}

/** A custnr the customers table cannot hold (replacement refuses these, so only a foreign writer sends one). */
export function custnrProblem(custnr: string): string | undefined {
  if (custnr.trim() === '') return 'custnr: must not be empty';
  if (characterCount(custnr) > CUSTOMER_LIMITS.custnr) {
    return `custnr: must be at most ${CUSTOMER_LIMITS.custnr} characters`;
  }
  return undefined;
}
