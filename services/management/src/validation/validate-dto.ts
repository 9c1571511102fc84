import { ValidationError } from '@trackline/domain';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { fieldLabel } from '@trackline/contracts';

const UNKNOWN_FIELD_CONSTRAINT = 'whitelistValidation';

/**
 * Checks request input (a body, a query, or the CLI's options) against a DTO class and returns the
 * typed instance. Unknown names are refused with `unknownRule`; the first broken rule becomes
 * a ValidationError naming the field, which the error mapper renders as the 400 (docs/partner-api.md,
 * Errors) and the CLI prints. No implicit conversion: the wire format sends strings,
 * and anything else is the client's bug.
 */
export function validateDto<T extends object>(
  dtoClass: ClassConstructor<T>,
  input: Record<string, unknown>,
  unknownRule = 'is not a known field',
): T {
  refuseUnknownFields(dtoClass, input, unknownRule);
  const instance = plainToInstance(dtoClass, input);
  const [first] = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  if (first !== undefined) {
    const constraints = first.constraints ?? {};
    const rule =
      UNKNOWN_FIELD_CONSTRAINT in constraints ? unknownRule : (Object.values(constraints)[0] ?? 'is invalid');
    throw new ValidationError(first.property, rule);
  }
  return instance;
}

/**
 * class-validator's whitelist looks fields up on the instance, so names that every object inherits
 * (`constructor`, `toString`, `__proto__`, `valueOf`, `hasOwnProperty`) and the empty name slip
 * through it; the input's own names are checked against the DTO's declared fields first.
 */
function refuseUnknownFields(
  dtoClass: ClassConstructor<object>,
  input: Record<string, unknown>,
  unknownRule: string,
): void {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dtoClass, '', true, false)
      .map((metadata) => metadata.propertyName),
  );
  for (const name of Object.keys(input)) {
    if (!known.has(name)) throw new ValidationError(fieldLabel(name), unknownRule);
  }
}
