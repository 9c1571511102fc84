import {
  fieldLabel,
  findUnstorableCharacter,
  MAX_NAME_LENGTH,
  UNSTORABLE_TEXT_RULE,
} from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';

/**
 * How deep a JSON body may nest (docs/architecture.md, Hardened edges). The deepest body of the
 * API is a pricing model's `conditions[0].weekdays[0]`, three levels down; a body nested deeper
 * than this is refused before any parser recurses through it.
 */
export const MAX_BODY_DEPTH = 16;

/**
 * Checks every name and text value of a request before any route sees it, so no handler, DTO or
 * store has to survive what no store can hold: NUL or an unpaired surrogate in a query parameter,
 * a body field or a field name (400 naming the field), and bodies nested past MAX_BODY_DEPTH.
 * `values: false` checks names and depth only, for endpoints whose parsers judge each value
 * themselves.
 */
export function checkRequestInput(
  query: Record<string, string>,
  body: unknown,
  options: { values: boolean } = { values: true },
): void {
  checkQueryInput(query, options);
  checkValue('body', body, 0, options.values);
}

export function checkQueryInput(query: Record<string, string>, options: { values: boolean }): void {
  for (const [name, value] of Object.entries(query)) {
    checkName(name, 'query parameter');
    if (options.values) checkText(fieldLabel(name), value);
  }
}

/**
 * The same rules for names and nesting, applied to one record of a batch as if it were a body of
 * its own: a batch endpoint judges each record alone (docs/cdrs.md, "Batches"), so a key no record
 * may carry costs that record its place and no other. Values are left to the record's parser.
 */
export function checkRecordInput(record: unknown): void {
  checkValue('record', record, 0, false);
}

function checkValue(path: string, value: unknown, depth: number, values: boolean): void {
  if (typeof value === 'string') {
    if (values) checkText(path, value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_BODY_DEPTH) {
    throw new ValidationError(path, `must not nest deeper than ${MAX_BODY_DEPTH} levels`);
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkValue(`${path}[${index}]`, item, depth + 1, values));
    return;
  }
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    // Top-level fields are named bare (`email`), as the DTOs name them.
    checkName(name, depth === 0 ? 'field' : `field of ${path}`, depth > 0);
    checkValue(depth === 0 ? fieldLabel(name) : `${path}.${fieldLabel(name)}`, item, depth + 1, values);
  }
}

function checkText(field: string, text: string): void {
  const at = findUnstorableCharacter(text);
  if (at >= 0) throw new ValidationError(field, `${UNSTORABLE_TEXT_RULE} (character ${at + 1})`);
}

/** `kind` completes "is not a known …": `query parameter`, `field`, `field of conditions[0]`. */
function checkName(name: string, kind: string, nested = false): void {
  // `__proto__` cannot be a plain key of an object literal (assigning it replaces the prototype), and
  // no field has an empty name; both would otherwise slip past checks that copy fields by name.
  if (name === '' || name === '__proto__') {
    throw new ValidationError(fieldLabel(name), `is not a known ${kind}`);
  }
  // Inside a value, names every object inherits (`constructor`, `toString`, …) are no field of any
  // nested record of ours, and class-transformer would call them while copying the value.
  if (nested && name in Object.prototype)
    throw new ValidationError(fieldLabel(name), `is not a known ${kind}`);
  if (findUnstorableCharacter(name) >= 0) {
    throw new ValidationError(fieldLabel(name), `is not a known ${kind}: names ${UNSTORABLE_TEXT_RULE}`);
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new ValidationError(
      fieldLabel(name),
      `is not a known ${kind}: names are at most ${MAX_NAME_LENGTH} characters`,
    );
  }
}
