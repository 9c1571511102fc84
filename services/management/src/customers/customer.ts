import type { CustomFieldValues } from './customer.entity';

/** The settable values. */
export interface CustomerValues {
  name: string;
  custnr: string;
  corporateid: string | null;
  email: string | null;
  dncsClassName: string | null;
  receiveMonthlyReport: boolean;
  serviceCallerId: boolean;
  customFields: CustomFieldValues;
}

/** A customer as services see it. */
export interface Customer extends CustomerValues {
  /** Decimal string (bigint). */
  id: string;
  partnerId: string;
  uuid: string;
  created: Date;
  modified: Date;
}

/** Changes of a PUT: keys left out keep their value; `customFields` is merged into the stored ones. */
export type CustomerChanges = Partial<CustomerValues>;

export interface CustomerFilter {
  custnr?: string;
}
