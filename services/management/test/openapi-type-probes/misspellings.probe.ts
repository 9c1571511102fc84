import type { paths } from './management';

type CreateCustomer = NonNullable<paths['/customers']['post']['requestBody']>['content']['application/json'];
type Created = paths['/customers']['post']['responses'][200]['content']['application/json'];
type CdrPage = paths['/statistics/cdrs']['get']['responses'][200]['content']['application/json'];
type CreatedWebhook = paths['/webhooks']['post']['responses'][200]['content']['application/json'];

export const misspelled: CreateCustomer = {
  name: 'Kari Nordmann AS',
  custnr: '100',
  // @ts-expect-error a misspelled body field (`email`) is not a custom field
  emial: 'post@kari.example',
};

export function customerNumber(created: Created): string {
  // @ts-expect-error a misspelled answer field (`custnr`)
  return created.customers[0].custnummer;
}

/** An `extended=1` page: the extended fields read without narrowing (absent on a basic page). */
export function commission(page: CdrPage): (string | null | undefined)[] {
  return page.cdrs.map((cdr) => cdr.commission);
}

/** The answer to POST always shows the secret. */
export function secret(created: CreatedWebhook): string {
  return created.webhooks[0].secret;
}
