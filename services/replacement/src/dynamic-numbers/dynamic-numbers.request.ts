import {
  fieldLabel,
  isMarketingIdKey,
  jsonMayHoldUnstorableText,
  lengthProblem,
  marketingIdProblem,
  parameterLimit,
  TEXT_LIMITS,
  textProblem,
  UNSTORABLE_TEXT_RULE,
  type VisitorType,
} from '@trackline/contracts';
import { InvalidRequestError } from '../http/replacement-errors';

/** A request that passed the checks of docs/number-replacement.md (numbers are still the raw text). */
export interface ReplacementRequest {
  advId: string;
  fullUrl: string;
  trackingId: string;
  numbers: string;
  type: VisitorType;
  fullReferrer: string;
  parameters: Record<string, string>;
  userAgent: string | null;
  requestIpAddress: string | null;
  /** Null when missing or empty: a new session starts. */
  sessionId: string | null;
}

// In the seed's table order, which is also the order the checks run in.
const REQUIRED_FOR_ALL = [
  'advId',
  'fullUrl',
  'trackingId',
  'numbers',
  'type',
  'fullReferrer',
  'parameters',
] as const;
const REQUIRED_FOR_WEB = ['userAgent', 'requestIpAddress'] as const;
const KNOWN_FIELDS = new Set<string>([...REQUIRED_FOR_ALL, ...REQUIRED_FOR_WEB, 'sessionId']);

type JsonObject = Record<string, unknown>;

/** The body as one JSON object; anything else is a 400. */
export function parseJsonBody(body: Buffer): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidRequestError('Invalid JSON: the body must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError('Invalid JSON: the body must be a JSON object');
  }
  return value as JsonObject;
}

/** advId is checked first: without it the signature cannot be verified. */
export function readAdvId(body: JsonObject): string {
  return requiredString(textProblem, 'advId', body.advId);
}

type TextRule = (value: string, maxCharacters?: number) => string | undefined;

/**
 * Every other check, run after the signature has been verified. `rawBody` is the text `body` was
 * parsed from: when it holds no `\u` escape, no field can hold an unstorable character and only
 * the length rules are checked (jsonMayHoldUnstorableText).
 */
export function parseReplacementRequest(body: JsonObject, rawBody: Buffer): ReplacementRequest {
  // Every text of the request is held to the rules of what both services accept (docs/cdrs.md, "What
  // both services accept"): what lands on a binding and then on a call record must be storable there.
  const rule: TextRule = jsonMayHoldUnstorableText(rawBody) ? textProblem : lengthProblem;
  // Each field is read by its name, not through one helper's body[name]: a lookup whose key varies
  // falls back to V8's slowest property access on every request (docs/benchmarks.md).
  const advId = requiredString(rule, 'advId', body.advId);
  const fullUrl = requiredString(rule, 'fullUrl', body.fullUrl);
  const trackingId = requiredString(rule, 'trackingId', body.trackingId, TEXT_LIMITS.trackingId);
  const numbers = requiredString(rule, 'numbers', body.numbers);
  const type = requiredString(rule, 'type', body.type);
  if (type !== 'web' && type !== 'app') throw InvalidRequestError.invalid('type', 'must be web or app');
  const fullReferrer = requiredString(rule, 'fullReferrer', body.fullReferrer);
  const parameters = readParameters(rule, body.parameters);
  // App requests come from a native app, which sends none of these; if it does, they must still be strings.
  const userAgent =
    type === 'web'
      ? requiredString(rule, 'userAgent', body.userAgent)
      : optionalString(rule, 'userAgent', body.userAgent);
  const requestIpAddress =
    type === 'web'
      ? requiredString(rule, 'requestIpAddress', body.requestIpAddress)
      : optionalString(rule, 'requestIpAddress', body.requestIpAddress);
  const sessionId = optionalString(rule, 'sessionId', body.sessionId);
  if (type === 'app' && trackingId.trim() === '') {
    throw InvalidRequestError.invalid('trackingId', 'must not be empty for type app');
  }
  for (const key of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(key)) throw new InvalidRequestError(`Unknown parameter: ${fieldLabel(key)}`);
  }
  return {
    advId,
    fullUrl,
    trackingId,
    numbers,
    type,
    fullReferrer,
    parameters,
    userAgent,
    requestIpAddress,
    sessionId: sessionId === null || sessionId === '' || type === 'app' ? null : sessionId,
  };
}

function requiredString(rule: TextRule, name: string, value: unknown, limit?: number): string {
  if (value === undefined) throw InvalidRequestError.missing(name);
  return checkedText(rule, name, value, limit);
}

function optionalString(rule: TextRule, name: string, value: unknown): string | null {
  if (value === undefined) return null;
  return checkedText(rule, name, value, undefined);
}

function checkedText(rule: TextRule, name: string, value: unknown, limit: number | undefined): string {
  if (typeof value !== 'string') throw InvalidRequestError.invalid(name, 'must be a string');
  const problem = rule(value, limit);
  if (problem !== undefined) throw InvalidRequestError.invalid(name, problem);
  return value;
}

function readParameters(rule: TextRule, value: unknown): Record<string, string> {
  if (value === undefined) throw InvalidRequestError.missing('parameters');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw InvalidRequestError.invalid('parameters', 'must be an object');
  }
  const parameters = value as JsonObject;
  for (const key of Object.keys(parameters)) {
    // A key is stored too (the record's parameters); one that cannot be is not echoed back.
    if (rule(key) !== undefined)
      throw InvalidRequestError.invalid('parameters', `keys ${UNSTORABLE_TEXT_RULE}`);
    // Characters are Unicode code points, so "ø" or an emoji counts once.
    const text = checkedParameter(rule, key, parameters[key]);
    // Click and analytics ids go to Google as they are (docs/number-replacement.md).
    const problem = isMarketingIdKey(key) ? marketingIdProblem(key, text) : undefined;
    if (problem !== undefined) throw InvalidRequestError.invalid(`parameters.${key}`, problem);
  }
  return parameters as Record<string, string>;
}

// checkedText for one parameter, its `parameters.<key>` label made only for the error it names.
function checkedParameter(rule: TextRule, key: string, value: unknown): string {
  const problem = typeof value !== 'string' ? 'must be a string' : rule(value, parameterLimit(key));
  if (problem !== undefined) throw InvalidRequestError.invalid(`parameters.${key}`, problem);
  return value as string;
}
