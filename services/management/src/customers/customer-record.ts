import { renderFlag } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { Customer } from './customer';

export const CUSTOMER_NAMES: ResourceNames = { plural: 'customers', singular: 'customer' };

/**
 * The record partners see (seed "customers" table): every value a string or null, flags "0"/"1",
 * then the partner's custom fields in definition order, null when never set.
 */
export function toCustomerRecord(customer: Customer, customFieldNames: readonly string[]): ApiRecord {
  const record: ApiRecord = {
    customer_id: customer.id,
    name: customer.name,
    custnr: customer.custnr,
    corporateid: customer.corporateid,
    email: customer.email,
    uuid: customer.uuid,
    dncs_class_name: customer.dncsClassName,
    receive_monthly_report: renderFlag(customer.receiveMonthlyReport),
    service_caller_id: renderFlag(customer.serviceCallerId),
  };
  for (const field of customFieldNames) record[field] = customer.customFields[field] ?? null;
  return record;
}
