import { characterCount } from '@trackline/contracts';
import { parseFlag, ValidationError } from '@trackline/domain';
import { isEmail, ValidateBy, ValidateIf } from 'class-validator';

// Composed class-validator decorators: each runs its checks in a fixed order and reports
// the one rule broken, worded to follow the field name ("name: must be at most 60 characters").

/**
 * `required`: must be present (POST). `optional`: may be left out (PUT keeps the value).
 * `clearable`: may be left out, and null or "" clears the stored value.
 */
export type Presence = 'required' | 'optional' | 'clearable';

/**
 * Which request a DTO class checks: `create` (POST) or `update` (PUT, where every key may be left
 * out and then keeps its value). Each resource builds both classes from one factory taking the mode.
 */
export type DtoMode = 'create' | 'update';

/** A field the record must have: required on create, optional on update. */
export function requiredOn(mode: DtoMode): Presence {
  return mode === 'create' ? 'required' : 'optional';
}

/** The stored value of a `clearable` field: null and "" clear it. */
export function clearable(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}

type Rule = (value: unknown) => string | undefined;

function fieldRule(
  name: string,
  presence: Presence,
  format: string | undefined,
  rule: Rule,
): PropertyDecorator {
  const check: Rule = (value) => {
    if (value === undefined) return format === undefined ? 'is required' : `is required (${format})`;
    if (value === null) return 'must not be null';
    return rule(value);
  };
  const validate = ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => check(value) === undefined,
      defaultMessage: (args) => check(args?.value) ?? 'is invalid',
    },
  });
  const skip =
    presence === 'required'
      ? undefined
      : ValidateIf((_object, value: unknown) =>
          presence === 'optional'
            ? value !== undefined
            : value !== undefined && value !== null && value !== '',
        );
  return (target, propertyKey) => {
    skip?.(target, propertyKey);
    validate(target, propertyKey);
  };
}

const textRule =
  (maxLength: number): Rule =>
  (value) => {
    if (typeof value !== 'string') return 'must be a string';
    if (value.trim() === '') return 'must not be empty';
    if (characterCount(value) > maxLength) return `must be at most ${maxLength} characters`;
    return undefined;
  };

export function Text(maxLength: number, presence: Presence): PropertyDecorator {
  return fieldRule('text', presence, undefined, textRule(maxLength));
}

export function Email(maxLength: number, presence: Presence): PropertyDecorator {
  const text = textRule(maxLength);
  return fieldRule('email', presence, undefined, (value) => {
    const broken = text(value);
    if (broken !== undefined) return broken;
    return isEmail(value as string) ? undefined : 'must be a valid e-mail address';
  });
}

/** The strict "0"/"1" of the wire format, by the domain's one parser. */
export function Flag(presence: Presence): PropertyDecorator {
  return Parsed(presence, (value) => parseFlag('', value));
}

/** A field of the record a PUT cannot change: named in the 400 rather than called unknown. */
export function Fixed(): PropertyDecorator {
  // Any value sent is refused, null and "" too.
  const skip = ValidateIf((_object, value: unknown) => value !== undefined);
  const refuse = ValidateBy({
    name: 'fixed',
    validator: { validate: () => false, defaultMessage: () => 'cannot be changed' },
  });
  return (target, propertyKey) => {
    skip(target, propertyKey);
    refuse(target, propertyKey);
  };
}

/** A field set on create that a PUT cannot change (`rule` checks it on create). */
export function CreateOnly(mode: DtoMode, rule: PropertyDecorator): PropertyDecorator {
  return mode === 'create' ? rule : Fixed();
}

/** A field only a PUT may set (`rule` checks it there); unknown to a POST. */
export function UpdateOnly(mode: DtoMode, rule: PropertyDecorator): PropertyDecorator {
  return mode === 'update' ? rule : () => undefined;
}

/** A field of the stored record only: unknown to a POST, `cannot be changed` in a PUT. */
export function RecordOnly(mode: DtoMode): PropertyDecorator {
  return mode === 'create' ? () => undefined : Fixed();
}

/**
 * Presence only, for values a domain parser checks after the DTO (e.g. pricing conditions, whose
 * errors name the nested key like `conditions[0].cost_per_lead`).
 */
export function Present(presence: Presence): PropertyDecorator {
  return fieldRule('present', presence, undefined, () => undefined);
}

/**
 * A value checked by one of the domain's strict parsers; its ValidationError's rule is reported.
 * `format`, when given, is named in the message of a missing required value ("is required (YYYY-MM)").
 */
export function Parsed(
  presence: Presence,
  parse: (value: unknown) => unknown,
  format?: string,
): PropertyDecorator {
  return fieldRule('parsed', presence, format, (value) => {
    try {
      parse(value);
      return undefined;
    } catch (error) {
      if (error instanceof ValidationError) return error.rule;
      throw error;
    }
  });
}
