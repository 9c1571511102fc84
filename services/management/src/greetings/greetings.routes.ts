import type { ApiRecord, ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { GREETING_NAMES, toGreetingRecord } from './greeting-record';
import { parseCreateGreeting } from './greetings.dto';
import type { GreetingsService } from './greetings.service';

const BASE = '/customers/:customerId/voicemail_greetings';

/**
 * List, create, read (with the recording) and delete a customer's voicemail greetings (seed
 * "Operations", docs/voicemail-greetings.md).
 */
export function greetingRoutes(service: GreetingsService): RouteDefinition[] {
  const recordNumber = service.recordNumber;
  return [
    {
      method: 'GET',
      path: BASE,
      handle: async ({ partner, params }) => {
        const greetings = await service.list(partner.id, params.customerId ?? '');
        return greetingsResponse(
          greetings.map(({ greeting, usage }) => toGreetingRecord(greeting, usage, recordNumber, 'omit')),
        );
      },
    },
    {
      method: 'POST',
      path: BASE,
      handle: async ({ partner, params, body }) => {
        const { name } = parseCreateGreeting(body);
        const { greeting, usage } = await service.create(partner.id, params.customerId ?? '', name);
        return greetingsResponse([toGreetingRecord(greeting, usage, recordNumber, { sounddata: null })]);
      },
    },
    {
      method: 'GET',
      path: `${BASE}/:vmGreetingId`,
      handle: async ({ partner, params }) => {
        const { greeting, usage } = await service.get(
          partner.id,
          params.customerId ?? '',
          params.vmGreetingId ?? '',
        );
        return greetingsResponse([toGreetingRecord(greeting, usage, recordNumber, greeting)]);
      },
    },
    {
      method: 'DELETE',
      path: `${BASE}/:vmGreetingId`,
      // Answers with the record as it was (without the audio), so the client sees what it removed.
      handle: async ({ partner, params }) => {
        const { greeting, usage } = await service.delete(
          partner.id,
          params.customerId ?? '',
          params.vmGreetingId ?? '',
        );
        return greetingsResponse([toGreetingRecord(greeting, usage, recordNumber, 'omit')]);
      },
    },
  ];
}

function greetingsResponse(records: ApiRecord[]): ApiResponse {
  return { kind: 'records', names: GREETING_NAMES, records };
}
