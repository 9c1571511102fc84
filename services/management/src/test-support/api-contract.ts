import { OpenApiContract, type ObservedExchange } from '@trackline/test-harness';
import { withPathForms } from '../api-reference/path-forms';

/**
 * docs/openapi/management.yaml as served (with every path form the router answers,
 * api-reference/path-forms.ts), as the test clients hold every answer against it (docs/testing.md,
 * Response validation). The `servers` URL carries `/v1` and a second server is the same address
 * without it, so a version-less path is the same resource.
 */
export const managementContract = OpenApiContract.fromDocs('management.yaml', {
  served: withPathForms,
  platformStatuses: [431],
  // docs/partner-api.md, XML: the item names that are not the field's name without its plural ending.
  xmlItemNames: {
    used_by: 'item',
    keywords_spotted: 'keyword',
    lead: 'phrase',
    not_a_lead: 'phrase',
    existing_customer: 'phrase',
    wrong_number: 'phrase',
  },
  normalizePath: (pathname) => pathname.replace(/^\/v1(?=\/|$)/, '') || '/',
});

/** Fails the calling test when the answer is not one the document allows. */
export function checkManagementAnswer(exchange: ObservedExchange): void {
  managementContract.check(exchange);
}
