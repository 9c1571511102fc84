import { characterCount } from '@trackline/contracts';
import { parseFlag, ValidationError } from '@trackline/domain';
import { clearable, Email, Flag, requiredOn, Text, type DtoMode } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import type { CustomFieldValues } from './customer.entity';
import type { CustomerChanges, CustomerFilter, CustomerValues } from './customer';

export const CUSTOMER_LIMITS = {
  custnr: 45,
  name: 60,
  email: 150,
  corporateid: 255,
  dncsClassName: 255,
} as const;
/** Custom field values are free text; the bound keeps one record from growing without limit. */
export const MAX_CUSTOM_FIELD_LENGTH = 255;

function customerDto(mode: DtoMode) {
  class CustomerDto {
    @Text(CUSTOMER_LIMITS.name, requiredOn(mode))
    name?: string;

    @Text(CUSTOMER_LIMITS.custnr, requiredOn(mode))
    custnr?: string;

    @Text(CUSTOMER_LIMITS.corporateid, 'clearable')
    corporateid?: string | null;

    @Email(CUSTOMER_LIMITS.email, 'clearable')
    email?: string | null;

    @Text(CUSTOMER_LIMITS.dncsClassName, 'clearable')
    dncs_class_name?: string | null;

    @Flag('optional')
    receive_monthly_report?: string;

    @Flag('optional')
    service_caller_id?: string;
  }
  return CustomerDto;
}

/** POST /customers: name and custnr are required. */
export const CreateCustomerDto = customerDto('create');
/** PUT /customers/:id: every key may be left out and then keeps its value. */
export const UpdateCustomerDto = customerDto('update');
type CustomerDto = InstanceType<typeof CreateCustomerDto>;

export class CustomerListQueryDto {
  @Text(CUSTOMER_LIMITS.custnr, 'optional')
  custnr?: string;
}

export function parseCreateCustomer(
  body: Record<string, unknown>,
  customFieldNames: readonly string[],
): CustomerValues {
  const { seed, custom } = splitCustomFields(body, customFieldNames);
  const dto = validateDto(CreateCustomerDto, seed);
  const changes = toChanges(dto, custom);
  return {
    name: changes.name!,
    custnr: changes.custnr!,
    corporateid: changes.corporateid ?? null,
    email: changes.email ?? null,
    dncsClassName: changes.dncsClassName ?? null,
    receiveMonthlyReport: changes.receiveMonthlyReport ?? false,
    serviceCallerId: changes.serviceCallerId ?? false,
    customFields: changes.customFields ?? {},
  };
}

export function parseUpdateCustomer(
  body: Record<string, unknown>,
  customFieldNames: readonly string[],
): CustomerChanges {
  const { seed, custom } = splitCustomFields(body, customFieldNames);
  return toChanges(validateDto(UpdateCustomerDto, seed), custom);
}

export function parseCustomerListQuery(query: Record<string, string>): CustomerFilter {
  const dto = validateDto(CustomerListQueryDto, query);
  return dto.custnr === undefined ? {} : { custnr: dto.custnr };
}

// The partner's custom fields are the only keys besides the seed fields; anything else is left in
// `seed` for the DTO to refuse by name.
export function splitCustomFields(
  body: Record<string, unknown>,
  customFieldNames: readonly string[],
): { seed: Record<string, unknown>; custom: CustomFieldValues | undefined } {
  const seed: Record<string, unknown> = {};
  const custom: CustomFieldValues = {};
  let hasCustom = false;
  for (const [key, value] of Object.entries(body)) {
    if (!customFieldNames.includes(key)) {
      seed[key] = value;
      continue;
    }
    if (value !== null && typeof value !== 'string')
      throw new ValidationError(key, 'must be a string or null');
    if (value !== null && characterCount(value) > MAX_CUSTOM_FIELD_LENGTH) {
      throw new ValidationError(key, `must be at most ${MAX_CUSTOM_FIELD_LENGTH} characters`);
    }
    custom[key] = value;
    hasCustom = true;
  }
  return { seed, custom: hasCustom ? custom : undefined };
}

function toChanges(dto: CustomerDto, custom: CustomFieldValues | undefined): CustomerChanges {
  const changes: CustomerChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.custnr !== undefined) changes.custnr = dto.custnr;
  if (dto.corporateid !== undefined) changes.corporateid = clearable(dto.corporateid);
  if (dto.email !== undefined) changes.email = clearable(dto.email);
  if (dto.dncs_class_name !== undefined) changes.dncsClassName = clearable(dto.dncs_class_name);
  if (dto.receive_monthly_report !== undefined) {
    changes.receiveMonthlyReport = parseFlag('receive_monthly_report', dto.receive_monthly_report);
  }
  if (dto.service_caller_id !== undefined) {
    changes.serviceCallerId = parseFlag('service_caller_id', dto.service_caller_id);
  }
  if (custom !== undefined) changes.customFields = custom;
  return changes;
}
