import { formatUtcTimestamp, renderFlag, renderTimeWindow, type AltNumberRule } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { Source } from './source';

export const SOURCE_NAMES: ResourceNames = { plural: 'sources', singular: 'source' };

/**
 * The record partners see (seed "sources" table): every value a string or null, flags "0"/"1",
 * alt_numbers as the rules sent plus alt_key, then the partner's custom fields in definition order.
 */
export function toSourceRecord(source: Source, customFieldNames: readonly string[]): ApiRecord {
  const record: ApiRecord = {
    source_id: source.id,
    name: source.name,
    customer_id: source.customerId,
    media: source.media,
    phonenr: source.phonenr,
    destnr: source.destnr,
    campaign_id: source.campaignId,
    publisher_id: source.publisherId,
    email: source.email,
    smsnumber: source.smsnumber,
    status: source.status,
    class: source.sourceClass,
    timestamp: formatUtcTimestamp(source.activatedAt),
    expire: source.expire === null ? null : formatUtcTimestamp(source.expire),
    created: formatUtcTimestamp(source.created),
    modified: formatUtcTimestamp(source.modified),
    vm_greeting_id: source.vmGreetingId,
    notify_on_missed_call: renderFlag(source.notifyOnMissedCall),
    notify_on_new_voicemail: renderFlag(source.notifyOnNewVoicemail),
    vm_divert_all: renderFlag(source.vmDivertAll),
    vm_divert_busy: renderFlag(source.vmDivertBusy),
    vm_divert_noanswer: renderFlag(source.vmDivertNoanswer),
    alt_numbers: source.altNumbers.map(toAltNumberRecord),
  };
  for (const field of customFieldNames) record[field] = source.customFields[field] ?? null;
  return record;
}

function toAltNumberRecord(rule: AltNumberRule): ApiRecord {
  return { phonenr: rule.phonenr, ...renderTimeWindow(rule), alt_key: rule.altKey };
}
