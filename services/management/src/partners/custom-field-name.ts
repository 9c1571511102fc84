import { ValidationError } from '@trackline/domain';
import type { CustomFieldEntity } from './partner-custom-field.entity';

const FIELD_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

// Custom fields appear as extra fields of the record and are sent like seed fields, so a custom
// field must never shadow a name the API already uses for that resource (seed field tables, plus
// the request parameters and timestamps the resource knows).
export const RESERVED_FIELD_NAMES: Record<CustomFieldEntity, ReadonlySet<string>> = {
  customer: new Set([
    'customer_id',
    'name',
    'custnr',
    'corporateid',
    'email',
    'uuid',
    'dncs_class_name',
    'receive_monthly_report',
    'service_caller_id',
    'created',
    'modified',
  ]),
  source: new Set([
    'source_id',
    'name',
    'customer_id',
    'custnr',
    'media',
    'phonenr',
    'destnr',
    'campaign_id',
    'publisher_id',
    'email',
    'smsnumber',
    'status',
    'class',
    'timestamp',
    'expire',
    'created',
    'modified',
    'vm_greeting_id',
    'notify_on_missed_call',
    'notify_on_new_voicemail',
    'vm_divert_all',
    'vm_divert_busy',
    'vm_divert_noanswer',
    'alt_numbers',
    'page',
    'pagesize',
  ]),
};

export function parseCustomFieldName(entity: CustomFieldEntity, value: string): string {
  if (!FIELD_NAME_PATTERN.test(value)) {
    throw new ValidationError('field', 'must be a lowercase letter followed by up to 62 of a-z, 0-9 and _');
  }
  if (RESERVED_FIELD_NAMES[entity].has(value)) {
    throw new ValidationError('field', `${value} is already a field of every ${entity}`);
  }
  return value;
}
