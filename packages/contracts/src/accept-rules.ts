import { readPhoneNumber, type CountryCode } from '@trackline/domain';
import { findUnstorableCharacter, UNSTORABLE_TEXT_RULE } from './text-rules';

/**
 * What both services accept for the values that travel from a replacement request or a routed call
 * to a stored call record (docs/cdrs.md, "What both services accept"). Replacement checks them where a
 * visitor's page or the switch sends them, management where the switch delivers the record, so a
 * value one service takes the other can store. Each check answers the broken rule as a message
 * fragment (`must be …`), or undefined when the value is accepted; each service words its own 400
 * around it.
 */

/** Column sizes of the call record (`cdrs`) and the customer that a request's values end in. */
export const TEXT_LIMITS = {
  /** cdrs.call_id varchar(128). */
  callId: 128,
  /** cdrs.anum / cdrs.cnum varchar(32). */
  anum: 32,
  /** cdrs.session_id varchar(100) (replacement's session ids are UUIDs). */
  sessionId: 100,
  /** cdrs.tracking_id varchar(100). */
  trackingId: 100,
  /** customers.custnr varchar(45). */
  custnr: 45,
  /** customers.name varchar(60). */
  custname: 60,
  /** customers.email varchar(150). */
  custemail: 150,
  /** Any other `parameters` value (a custom dimension, kept in cdrs.parameters jsonb). */
  parameter: 2048,
} as const;

/**
 * The one form of a withheld caller id (`anum`): an empty `anum`, or a word without digits
 * ("restricted", "Unknown"), is read as this.
 */
export const WITHHELD_CALLER = 'anonymous';

// Printable ASCII without the space: what every switch's call ids and caller ids are made of.
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const PRINTABLE_OR_EMPTY = /^[\x21-\x7e]*$/;

export const CALL_ID_RULE = `must be 1 to ${TEXT_LIMITS.callId} printable ASCII characters without spaces`;
export const ANUM_RULE = `must be at most ${TEXT_LIMITS.anum} printable ASCII characters besides spaces (a withheld caller is "${WITHHELD_CALLER}", empty or a word without digits)`;

/** Length in characters as Postgres counts them (code points), counting no further than `stopAfter` + 1. */
export function characterCount(text: string, stopAfter = Infinity): number {
  let count = 0;
  for (const _ of text) if (++count > stopAfter) break;
  return count;
}

/** `call_id`: the switch's id of the call, the key of its attribution and its record. */
export function callIdProblem(value: string): string | undefined {
  return value.length <= TEXT_LIMITS.callId && PRINTABLE_ASCII.test(value) ? undefined : CALL_ID_RULE;
}

/**
 * `anum` (and the record's `cnum`): the caller as the switch saw it — a number in any spelling, or a
 * word for a withheld caller (docs/switch.md, "Numbers"). Spaces are dropped; what is left empty or
 * holds no digit is withheld and read as `WITHHELD_CALLER`; anything else must pass the rule. Its one
 * stored form comes from `canonicalAnum` once the partner (and its country) is known.
 */
export function readAnum(value: string): { anum: string } | { problem: string } {
  const compact = value.replace(/\s/g, '');
  if (!/\d/.test(compact))
    return PRINTABLE_OR_EMPTY.test(compact) ? { anum: WITHHELD_CALLER } : { problem: ANUM_RULE };
  return compact.length <= TEXT_LIMITS.anum && PRINTABLE_ASCII.test(compact)
    ? { anum: compact }
    : { problem: ANUM_RULE };
}

/**
 * The stored form of a caller `readAnum` accepted, read in the partner's country: E.164 when it is a
 * phone number ("91234567", "0047 91234567" → "+4791234567"); the withheld form; else (a short code,
 * digits no numbering plan has) as read. Both services store and match callers in this form only.
 */
export function canonicalAnum(anum: string, country: CountryCode): string {
  if (anum === WITHHELD_CALLER) return anum;
  return readPhoneNumber(anum, country) ?? anum;
}

/**
 * Free text that ends in a store: no character no store can hold, and at most `maxCharacters`
 * characters when given.
 */
export function textProblem(value: string, maxCharacters?: number): string | undefined {
  if (findUnstorableCharacter(value) !== -1) return UNSTORABLE_TEXT_RULE;
  return lengthProblem(value, maxCharacters);
}

/**
 * The length rule of textProblem alone, for text already known to be storable (a string parsed from
 * JSON that `jsonMayHoldUnstorableText` cleared).
 */
export function lengthProblem(value: string, maxCharacters?: number): string | undefined {
  // Within the limit in UTF-16 units is within it in code points too: most values skip the count.
  if (
    maxCharacters !== undefined &&
    value.length > maxCharacters &&
    characterCount(value, maxCharacters) > maxCharacters
  )
    return `max ${maxCharacters} characters`;
  return undefined;
}

/** The limit of one `parameters` entry of a replacement request, by its key. */
export function parameterLimit(key: string): number {
  switch (key) {
    case 'custnr':
      return TEXT_LIMITS.custnr;
    case 'custname':
      return TEXT_LIMITS.custname;
    case 'custemail':
      return TEXT_LIMITS.custemail;
    default:
      return TEXT_LIMITS.parameter;
  }
}

/**
 * The one cleaning rule, for text read back from Redis that an older version may have accepted: each
 * unstorable character becomes U+FFFD (the replacement character) and the text is cut after
 * `maxCharacters` characters. Text that passes `textProblem` comes back unchanged.
 */
export function toStorableText(value: string, maxCharacters?: number): string {
  let text = '';
  let count = 0;
  for (const character of value) {
    if (maxCharacters !== undefined && count === maxCharacters) break;
    // Iterating a string yields a lone surrogate as its own one-unit "character".
    text +=
      character === '\u0000' || (character.length === 1 && isSurrogate(character)) ? '\ufffd' : character;
    count++;
  }
  return text;
}

function isSurrogate(character: string): boolean {
  const code = character.charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff;
}
