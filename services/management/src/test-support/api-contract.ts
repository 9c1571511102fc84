import { OpenApiContract, type ObservedExchange } from '@trackline/test-harness';

const FORMAT_SUFFIX = /\.(xml|json)(?=\/|$)/;

/**
 * docs/openapi/management.yaml as the test clients hold every answer against it (docs/testing.md,
 * Response validation): the `servers` URL carries `/v1`, so a version-less path is the same
 * resource; a format suffix may sit on any segment (`/statistics/cdrs.xml`) and the document
 * writes it on the resource name (`/statistics.xml/cdrs`), as the seed's `/customers.xml/1` does.
 */
export const managementContract = OpenApiContract.fromDocs('management.yaml', {
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
  normalizePath: (pathname, query) => {
    const path = subResourcePath(pathname.replace(/^\/v1(?=\/|$)/, '') || '/', query);
    const suffix = FORMAT_SUFFIX.exec(path);
    if (suffix === null) return path;
    const bare = path.replace(FORMAT_SUFFIX, '');
    const [first, ...rest] = bare.split('/').slice(1);
    return `/${first}${suffix[0]}${rest.map((segment) => `/${segment}`).join('')}`;
  },
});

/** Query-form sub-resource ids by the sub-resource they name (route-table.ts: snake_case of the parameter). */
const SUB_RESOURCE_IDS: Record<string, string> = {
  campaigns: 'campaign_id',
  voicemail_greetings: 'vm_greeting_id',
};

/**
 * `/customers/campaigns?customer_id=7&campaign_id=2` is `/customers/7/campaigns/2` (seed: Request
 * conventions 8); the document writes the path form only.
 */
function subResourcePath(path: string, query: URLSearchParams): string {
  const match = /^\/customers(\.xml|\.json)?\/([a-z_]+)((?:\/[a-z_]+)*)$/.exec(path);
  const customerId = query.get('customer_id');
  if (match === null || customerId === null || !/^\d+$/.test(customerId)) return path;
  const [, suffix = '', sub, rest] = match;
  const subId = query.get(SUB_RESOURCE_IDS[sub] ?? '');
  return `/customers${suffix}/${customerId}/${sub}${rest}${subId ? `/${subId}` : ''}`;
}

/** Fails the calling test when the answer is not one the document allows. */
export function checkManagementAnswer(exchange: ObservedExchange): void {
  managementContract.check(exchange);
}
