import { ValidationError } from '@trackline/domain';
import { Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import { NUMBER_KINDS, type NumberKind } from './tracking-number.entity';

/** numbers:add: the kind of the numbers and the numbers or ranges (docs/numbers-and-sources.md). */
export class AddNumbersDto {
  @Parsed('required', (value) => parseNumberKind(value))
  kind?: string;

  // Each range is expanded after the DTO, its errors naming the range as typed.
  @Parsed('required', (value) => {
    if (!Array.isArray(value) || value.length === 0)
      throw new ValidationError('numbers', 'name at least one number or range');
    if (!value.every((spec) => typeof spec === 'string'))
      throw new ValidationError('numbers', 'must be numbers or ranges as text');
  })
  numbers?: string[];
}

export function parseAddNumbers(input: { kind: string; numbers: readonly string[] }): {
  kind: NumberKind;
  specs: string[];
} {
  const dto = validateDto(
    AddNumbersDto,
    { kind: input.kind, numbers: [...input.numbers] },
    'is not a known option',
  );
  return { kind: parseNumberKind(dto.kind), specs: dto.numbers! };
}

function parseNumberKind(value: unknown): NumberKind {
  const kind = NUMBER_KINDS.find((candidate) => candidate === value);
  if (kind === undefined) throw new ValidationError('kind', `must be one of ${NUMBER_KINDS.join(', ')}`);
  return kind;
}
