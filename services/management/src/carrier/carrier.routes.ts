import { formatUtcTimestamp, normalizePhoneNumber, renderFlag } from '@trackline/domain';
import type { ApiRecord, ApiResponse, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { refuseUnknownQuery } from '../validation/query-parameters';
import type { CarrierAccount } from './carrier-account';
import type { CarrierAccountsService } from './carrier-accounts.service';
import { CarrierError, CarrierFailedError } from './carrier-error';
import { parseBuyInput, parseSearchInput } from './carrier-numbers.dto';
import type { CarrierNumbersService } from './carrier-numbers.service';

export const CARRIER_ACCOUNT_NAMES: ResourceNames = {
  plural: 'carrier_accounts',
  singular: 'carrier_account',
};
export const AVAILABLE_NUMBER_NAMES: ResourceNames = {
  plural: 'available_numbers',
  singular: 'available_number',
};
export const CARRIER_NUMBER_NAMES: ResourceNames = { plural: 'carrier_numbers', singular: 'carrier_number' };

/** GET/PUT/DELETE /carrier_account (docs/carrier-numbers.md, Credentials). */
export function carrierAccountRoutes(service: CarrierAccountsService): RouteDefinition[] {
  const answer = (account: CarrierAccount): ApiResponse => ({
    kind: 'records',
    names: CARRIER_ACCOUNT_NAMES,
    records: [toCarrierAccountRecord(account)],
  });
  return [
    {
      method: 'GET',
      path: '/carrier_account',
      handle: async ({ partner, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.get(partner.id));
      },
    },
    {
      method: 'PUT',
      path: '/carrier_account',
      handle: async ({ partner, query, body, now }) => {
        refuseUnknownQuery(query);
        return answer(await service.put(partner.id, body, now));
      },
    },
    {
      method: 'DELETE',
      path: '/carrier_account',
      handle: async ({ partner, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.remove(partner.id));
      },
    },
  ];
}

/** The account as the API and the CLI show it: the auth token never, only whether one is set. */
export function toCarrierAccountRecord(account: CarrierAccount): ApiRecord {
  return {
    account_sid: account.accountSid,
    base_url: account.baseUrl,
    auth_token_set: renderFlag(account.authToken !== ''),
    modified: formatUtcTimestamp(account.modified),
  };
}

/**
 * GET /carrier_numbers/available, POST /carrier_numbers, DELETE /carrier_numbers/<number>
 * (docs/carrier-numbers.md): a carrier's refusal is 502 (409 when no number is available).
 */
export function carrierNumberRoutes(service: CarrierNumbersService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/carrier_numbers/available',
      handle: async ({ partner, query }) => {
        const found = await carrierCall(() => service.searchAvailable(partner.id, parseSearchInput(query)));
        return {
          kind: 'records',
          names: AVAILABLE_NUMBER_NAMES,
          records: found.map((number) => ({
            number: number.phoneNumber,
            friendly_name: number.friendlyName,
            locality: number.locality,
            region: number.region,
            country: number.isoCountry,
          })),
        };
      },
    },
    {
      method: 'POST',
      path: '/carrier_numbers',
      handle: async ({ partner, query, body }) => {
        refuseUnknownQuery(query);
        const request = parseBuyInput(body);
        const { bought } = await carrierCall(() => service.buy(partner.id, request));
        return {
          kind: 'records',
          names: CARRIER_NUMBER_NAMES,
          status: 201,
          records: bought.map((number) => ({ number, kind: request.kind })),
        };
      },
    },
    {
      method: 'DELETE',
      path: '/carrier_numbers/:number',
      handle: async ({ partner, params, query }) => {
        refuseUnknownQuery(query);
        const e164 = normalizePhoneNumber('number', params.number ?? '', partner.country);
        const released = await carrierCall(() => service.releaseNumber(partner.id, e164));
        return {
          kind: 'records',
          names: CARRIER_NUMBER_NAMES,
          records: [
            {
              number: e164,
              released_at_carrier: renderFlag(released.atCarrier),
              quarantined_until: formatUtcTimestamp(released.quarantinedUntil),
            },
          ],
        };
      },
    },
  ];
}

async function carrierCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof CarrierError ? new CarrierFailedError(error) : error;
  }
}
