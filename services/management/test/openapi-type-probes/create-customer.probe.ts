import type { paths } from './management';

type CreateCustomer = NonNullable<paths['/customers']['post']['requestBody']>['content']['application/json'];

export const customer: CreateCustomer = {
  name: 'Kari Nordmann AS',
  custnr: '100',
  email: 'post@kari.example',
};
// @ts-expect-error name is required on create (the server answers `name: is required`)
export const nameless: CreateCustomer = { custnr: '100' };
