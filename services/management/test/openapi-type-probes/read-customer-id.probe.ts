import type { paths } from './management';

type Created = paths['/customers']['post']['responses'][200]['content']['application/json'];

export function customerId(created: Created): string {
  return created.customers[0].customer_id;
}
