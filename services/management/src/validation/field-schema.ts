import { fieldLabel } from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';
import type { Presence } from './field-rules';

/**
 * One input field: its name as sent, whether it may be left out, and the parser that checks it and
 * yields its typed value (throwing a ValidationError whose rule is reported under `name`).
 */
export interface FieldRule<T> {
  name: string;
  presence: Presence;
  parse(value: unknown): T;
}

/** The rules of one input, keyed by the typed value's keys, in the order they are checked. */
export type FieldSchema<Out> = { readonly [K in keyof Out]-?: FieldRule<Exclude<Out[K], undefined>> };

/**
 * Checks an input against its schema and returns the typed values, each parsed once: a field left
 * out is absent, and a `clearable` one sent as null or "" is null (so its type must admit null). The rules of
 * the class-validator DTOs (validate-dto.ts): unknown names are refused first with `unknownRule`,
 * then the first broken rule, in the schema's order, is a ValidationError naming the field.
 */
export function parseFields<Out>(
  schema: FieldSchema<Out>,
  input: Record<string, unknown>,
  unknownRule: string,
): Partial<Out> {
  const rules = Object.entries(schema) as Array<[keyof Out & string, FieldRule<unknown>]>;
  const known = new Set(rules.map(([, rule]) => rule.name));
  for (const name of Object.keys(input))
    if (!known.has(name)) throw new ValidationError(fieldLabel(name), unknownRule);
  const parsed: Partial<Out> = {};
  for (const [key, rule] of rules) {
    const value = Object.hasOwn(input, rule.name) ? input[rule.name] : undefined;
    if (value === undefined) {
      if (rule.presence === 'required') throw new ValidationError(rule.name, 'is required');
      continue;
    }
    if (rule.presence === 'clearable' && (value === null || value === '')) {
      parsed[key] = null as Out[typeof key];
      continue;
    }
    if (value === null) throw new ValidationError(rule.name, 'must not be null');
    try {
      parsed[key] = rule.parse(value) as Out[typeof key];
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError(rule.name, error.rule);
      throw error;
    }
  }
  return parsed;
}
