import type { ApiResponse } from '../http/api-response';
import type { AuthenticatedPartner, RouteDefinition } from '../http/route-definition';
import { CUSTOMER_NAMES, toCustomerRecord } from './customer-record';
import type { Customer } from './customer';
import { parseCreateCustomer, parseCustomerListQuery, parseUpdateCustomer } from './customers.dto';
import type { CustomersService } from './customers.service';

/** GET/POST /customers and GET/PUT/DELETE /customers/:customerId (seed "Operations", docs/partner-api.md). */
export function customerRoutes(service: CustomersService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/customers',
      handle: async ({ partner, query }) =>
        customersResponse(partner, await service.list(partner.id, parseCustomerListQuery(query))),
    },
    {
      method: 'POST',
      path: '/customers',
      handle: async ({ partner, body }) => {
        const values = parseCreateCustomer(body, partner.customFields.customer);
        return customersResponse(partner, [await service.create(partner.id, values)]);
      },
    },
    {
      method: 'GET',
      path: '/customers/:customerId',
      handle: async ({ partner, params }) =>
        customersResponse(partner, [await service.get(partner.id, params.customerId ?? '')]),
    },
    {
      method: 'PUT',
      path: '/customers/:customerId',
      handle: async ({ partner, params, body }) => {
        const changes = parseUpdateCustomer(body, partner.customFields.customer);
        return customersResponse(partner, [
          await service.update(partner.id, params.customerId ?? '', changes),
        ]);
      },
    },
    {
      method: 'DELETE',
      path: '/customers/:customerId',
      // Answers with the record as it was, so the client sees what it removed.
      handle: async ({ partner, params, now }) =>
        customersResponse(partner, [await service.delete(partner.id, params.customerId ?? '', now)]),
    },
  ];
}

function customersResponse(partner: AuthenticatedPartner, customers: Customer[]): ApiResponse {
  return {
    kind: 'records',
    names: CUSTOMER_NAMES,
    records: customers.map((customer) => toCustomerRecord(customer, partner.customFields.customer)),
  };
}
