import { ManagementClient, type CdrExtended, type Customer } from '@trackline/client';

/** The custom fields the operator defined for this partner (docs/partner-api.md, Custom fields). */
type Fields = { customer: 'custom_1'; source: 'ad_reference' };

export async function customers(api: ManagementClient<Fields>): Promise<string> {
  const created = await api.request('post', '/customers', {
    body: { name: 'Kari Nordmann AS', custnr: '100', email: 'post@kari.example', custom_1: 'gold' },
  });
  const customer: Customer<Fields> = created.data.customers[0];
  const tier: string | null = customer.custom_1;
  // @ts-expect-error a misspelled body field (`email`)
  await api.request('post', '/customers', { body: { name: 'Kari', custnr: '101', emial: 'x@kari.example' } });
  // @ts-expect-error the same through openapi-fetch's own POST
  await api.POST('/customers', { body: { name: 'Kari', custnr: '102', emial: 'x@kari.example' } });
  // @ts-expect-error a misspelled answer field (`custnr`)
  const misspelled: string = customer.custnummer;
  // @ts-expect-error a custom field the partner does not have
  const unknown: string = customer.custom_2;
  await api.request('put', '/customers/{customer_id}', {
    params: { path: { customer_id: '1' } },
    // @ts-expect-error flags are the strings "0" and "1"
    body: { receive_monthly_report: true },
  });
  // @ts-expect-error name is required on create
  await api.request('post', '/customers', { body: { custnr: '103' } });
  return `${customer.custnr} ${tier} ${misspelled} ${unknown}`;
}

export async function withoutCustomFields(api: ManagementClient): Promise<string> {
  const { data } = await api.request('get', '/customers/{customer_id}', {
    params: { path: { customer_id: '1' } },
  });
  // @ts-expect-error no custom fields declared, none typed
  const custom: string | null = data.customers[0].custom_1;
  return `${data.customers[0].name} ${custom}`;
}

export async function sources(api: ManagementClient<Fields>): Promise<string | null> {
  const updated = await api.request('put', '/sources/{source_id}', {
    params: { path: { source_id: '1' } },
    body: { ad_reference: 'FINN-1234', vm_divert_busy: '1' },
  });
  await api.request('put', '/sources/{source_id}', {
    params: { path: { source_id: '1' } },
    // @ts-expect-error a misspelled custom field in a body
    body: { ad_refrence: 'x' },
  });
  // @ts-expect-error a misspelled answer field (`destnr`)
  const number: string = updated.data.sources[0].destnumber;
  return `${number}${updated.data.sources[0].ad_reference}`;
}

export async function callRecords(api: ManagementClient<Fields>): Promise<string[]> {
  const query = { customer_id: '1', from_date: '2025-03-14', to_date: '2025-03-15' };
  const extended = await api.cdrs.listExtended(query);
  const records: CdrExtended[] = extended.data.cdrs;
  const commission: (string | null)[] = records
    .filter((cdr) => cdr.answered === '1')
    .map((cdr) => cdr.commission);
  const basic = await api.cdrs.list(query);
  // @ts-expect-error basic records have no commission
  const none: string | null = basic.data.cdrs[0].commission;
  // @ts-expect-error a misspelled answer field (`anum`)
  const caller: string = basic.data.cdrs[0].anumber;
  return [...commission.map(String), String(none), caller, String(extended.data.numpages)];
}

export async function webhooks(api: ManagementClient<Fields>): Promise<string> {
  const created = await api.request('post', '/webhooks', {
    body: { url: 'https://hooks.example.com/trackline' },
  });
  const secret: string = created.data.webhooks[0].secret;
  const listed = await api.request('get', '/webhooks');
  // @ts-expect-error only the answer to POST carries the secret; elsewhere it is null
  const again: string = listed.data.webhooks[0].secret;
  return secret + again;
}
