import { parsePricingConditions, parsePricingType, parseWholeSeconds } from '@trackline/domain';
import { Parsed, Present, Text, requiredOn, type DtoMode } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import type { PricingModelChanges, PricingModelValues } from './pricing-model';

export const PRICING_MODEL_NAME_LENGTH = 100;

function pricingModelDto(mode: DtoMode) {
  class PricingModelDto {
    @Text(PRICING_MODEL_NAME_LENGTH, requiredOn(mode))
    name?: string;

    @Parsed(requiredOn(mode), (value) => parsePricingType('type', value))
    type?: unknown;

    @Parsed(requiredOn(mode), (value) => parseWholeSeconds('unique_caller_time', value))
    unique_caller_time?: unknown;

    // Checked after the DTO by the domain, whose errors name the entry and key
    // (`conditions[1].to_time`), which a class-validator message on `conditions` could not.
    @Present(requiredOn(mode))
    conditions?: unknown;
  }
  return PricingModelDto;
}

/** POST /pricing_models: the seed's four parameters are all required. */
export const CreatePricingModelDto = pricingModelDto('create');
/** PUT /pricing_models/:id: keys left out keep their value; `type` may be sent but only as "0". */
export const UpdatePricingModelDto = pricingModelDto('update');

/** `conditions` is a JSON array in a JSON body or JSON text in a form field; both are accepted. */
export function parseCreatePricingModel(body: Record<string, unknown>): PricingModelValues {
  const dto = validateDto(CreatePricingModelDto, body);
  return {
    name: dto.name!,
    type: parsePricingType('type', dto.type),
    uniqueCallerSeconds: parseWholeSeconds('unique_caller_time', dto.unique_caller_time),
    conditions: parsePricingConditions('conditions', dto.conditions),
  };
}

export function parseUpdatePricingModel(body: Record<string, unknown>): PricingModelChanges {
  const dto = validateDto(UpdatePricingModelDto, body);
  const changes: PricingModelChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.unique_caller_time !== undefined) {
    changes.uniqueCallerSeconds = parseWholeSeconds('unique_caller_time', dto.unique_caller_time);
  }
  // Merged with the stored conditions by the service; the merge checks every key sent.
  if (dto.conditions !== undefined) changes.conditionsPatch = dto.conditions;
  return changes;
}
