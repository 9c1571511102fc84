import type { CustomFieldValues } from './customer.entity';

/** A customer as services see it. */
export interface Customer {
  /** Decimal string (bigint). */
  id: string;
  partnerId: string;
  uuid: string;
  name: string;
  custnr: string;
  corporateid: string | null;
  email: string | null;
  dncsClassName: string | null;
  receiveMonthlyReport: boolean;
  serviceCallerId: boolean;
  customFields: CustomFieldValues;
  created: Date;
  modified: Date;
}

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

/** Changes of a PUT: keys left out keep their value; `customFields` is merged into the stored ones. */
export type CustomerChanges = Partial<CustomerValues>;

export interface CustomerFilter {
  custnr?: string;
}
