import { normalizePhoneNumber, parseAltNumbers, ValidationError, type CountryCode } from '@trackline/domain';
import { Allow } from 'class-validator';
import type { CustomFieldValues } from '../customers/customer.entity';
import { splitCustomFields } from '../customers/customers.dto';
import {
  notificationSettingsDto,
  toNotificationSettingsChanges,
  withNotificationDefaults,
} from '../notifications/notification-settings.dto';
import {
  clearable,
  CreateOnly,
  Parsed,
  RecordOnly,
  requiredOn,
  Text,
  type DtoMode,
} from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import { isBigintId } from '../validation/record-id';
import { type SourceChangesInput, type SourceInput, type SourceListQuery } from './source';
import { checkPageParameter, parsePaging } from '../validation/paging';

export const SOURCE_LIMITS = {
  name: 100,
  media: 100,
  publisherId: 100,
  email: 150,
  sourceClass: 45,
  /** Ids are bigints: at most 19 digits. */
  id: 19,
  /** Phone input before normalisation (spaces, dashes, a leading 00). */
  phoneInput: 40,
} as const;
export const DEFAULT_SOURCE_CLASS = 'standard';

const SOURCE_NOTIFICATION_LIMITS = {
  email: SOURCE_LIMITS.email,
  smsnumber: SOURCE_LIMITS.phoneInput,
  greetingId: SOURCE_LIMITS.id,
};

function sourceDto(mode: DtoMode) {
  class SourceDto extends notificationSettingsDto(SOURCE_NOTIFICATION_LIMITS) {
    // Declared first: a PUT naming one of them is told so before anything else.
    @RecordOnly(mode)
    source_id?: unknown;

    @CreateOnly(mode, Text(SOURCE_LIMITS.id, 'required'))
    customer_id?: string;

    @CreateOnly(mode, Text(SOURCE_LIMITS.phoneInput, 'required'))
    phonenr?: string;

    @RecordOnly(mode)
    destnr?: unknown;

    @RecordOnly(mode)
    status?: unknown;

    @CreateOnly(mode, Text(SOURCE_LIMITS.sourceClass, 'optional'))
    class?: string;

    @RecordOnly(mode)
    timestamp?: unknown;

    @RecordOnly(mode)
    expire?: unknown;

    @RecordOnly(mode)
    created?: unknown;

    @RecordOnly(mode)
    modified?: unknown;

    @Text(SOURCE_LIMITS.media, 'clearable')
    media?: string | null;

    @Text(SOURCE_LIMITS.id, 'clearable')
    campaign_id?: string | null;

    @Text(SOURCE_LIMITS.publisherId, 'clearable')
    publisher_id?: string | null;

    // JSON text (form field) or an array (JSON body); parseAltNumbers checks every rule.
    @Allow()
    alt_numbers?: unknown;

    @Text(SOURCE_LIMITS.name, requiredOn(mode))
    name?: string;
  }
  return SourceDto;
}

/** POST /sources: customer_id, name and phonenr are required. */
export const CreateSourceDto = sourceDto('create');
/**
 * PUT /sources/:id: every key may be left out and then keeps its value; the record's fixed fields
 * answer `cannot be changed`.
 */
export const UpdateSourceDto = sourceDto('update');
type SourceDto = InstanceType<typeof CreateSourceDto>;

export class SourceListQueryDto {
  @Parsed('optional', checkPageParameter('page'))
  page?: string;

  @Parsed('optional', checkPageParameter('pagesize'))
  pagesize?: string;

  @Text(SOURCE_LIMITS.id, 'optional')
  customer_id?: string;
}

/** The partner's settings that shape parsing. */
export interface SourceParsing {
  country: CountryCode;
  customFieldNames: readonly string[];
}

export function parseCreateSource(body: Record<string, unknown>, partner: SourceParsing): SourceInput {
  const { seed, custom } = splitCustomFields(body, partner.customFieldNames);
  const dto = validateDto(CreateSourceDto, seed);
  const changes = toChanges(dto, custom, partner.country);
  return {
    customerId: dto.customer_id!,
    name: changes.name!,
    phonenr: normalizePhoneNumber('phonenr', dto.phonenr!, partner.country),
    media: changes.media ?? null,
    campaignId: changes.campaignId ?? null,
    publisherId: changes.publisherId ?? null,
    sourceClass: dto.class ?? DEFAULT_SOURCE_CLASS,
    ...withNotificationDefaults(changes),
    altNumbers: changes.altNumbers ?? [],
    customFields: changes.customFields ?? {},
  };
}

export function parseUpdateSource(body: Record<string, unknown>, partner: SourceParsing): SourceChangesInput {
  const { seed, custom } = splitCustomFields(body, partner.customFieldNames);
  return toChanges(validateDto(UpdateSourceDto, seed), custom, partner.country);
}

export function parseSourceListQuery(query: Record<string, string>): SourceListQuery {
  const dto = validateDto(SourceListQueryDto, query);
  const { page, pageSize } = parsePaging(dto);
  if (dto.customer_id !== undefined && !isBigintId(dto.customer_id)) {
    throw new ValidationError('customer_id', 'must be a customer id (a decimal number)');
  }
  return { page, pageSize, ...(dto.customer_id === undefined ? {} : { customerId: dto.customer_id }) };
}

function toChanges(
  dto: SourceDto,
  custom: CustomFieldValues | undefined,
  country: CountryCode,
): SourceChangesInput {
  const changes: SourceChangesInput = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.media !== undefined) changes.media = clearable(dto.media);
  if (dto.campaign_id !== undefined) changes.campaignId = clearable(dto.campaign_id);
  if (dto.publisher_id !== undefined) changes.publisherId = clearable(dto.publisher_id);
  Object.assign(changes, toNotificationSettingsChanges(dto, country));
  if (dto.alt_numbers !== undefined)
    changes.altNumbers = parseAltNumbers('alt_numbers', dto.alt_numbers, country);
  if (custom !== undefined) changes.customFields = custom;
  return changes;
}
