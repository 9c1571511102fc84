import { formatUtcTimestamp, renderFlag } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { Greeting, GreetingUsage } from './greeting';

export const GREETING_NAMES: ResourceNames = {
  plural: 'voicemail_greetings',
  singular: 'voicemail_greeting',
};

/**
 * The record partners see (seed "voicemail_greetings"). `sound` decides `sounddata`: the base64
 * audio (read by id), "" (a fresh placeholder), or left out (lists and deletes, so a list of many
 * greetings does not carry every recording; read one by id to download it).
 */
export function toGreetingRecord(
  greeting: Greeting,
  usage: GreetingUsage,
  recordNumber: string,
  sound: { sounddata: Buffer | null } | 'omit',
): ApiRecord {
  const usedBy: ApiRecord = {};
  for (const source of usage.sources) usedBy[source.id] = source.name;
  const record: ApiRecord = {
    vm_greeting_id: greeting.id,
    name: greeting.name,
    customer_id: greeting.customerId,
    timestamp: formatUtcTimestamp(greeting.created),
    datalength: greeting.datalength === null ? null : String(greeting.datalength),
    locked: renderFlag(usage.sources.length > 0 || usage.campaigns.length > 0),
    // The seed's shape: an empty array when unused, else an object of source_id → source name.
    used_by: usage.sources.length === 0 ? [] : usedBy,
  };
  if (sound !== 'omit') record.sounddata = sound.sounddata === null ? '' : sound.sounddata.toString('base64');
  record.record_number = recordNumber;
  record.record_pin = greeting.recordPin;
  return record;
}
