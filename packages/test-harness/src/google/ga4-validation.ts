import { isObject } from './loopback-server';

/**
 * What the Measurement Protocol validation server (`/debug/mp/collect`) reports, per Google's
 * documented limits for a GA4 web stream: one message per broken rule, each with the path of the
 * field, a description and a validation code.
 */
export interface Ga4ValidationMessage {
  fieldPath: string;
  description: string;
  validationCode:
    | 'VALUE_INVALID'
    | 'VALUE_REQUIRED'
    | 'NAME_INVALID'
    | 'NAME_RESERVED'
    | 'VALUE_OUT_OF_BOUNDS'
    | 'EXCEEDED_MAX_ENTITIES'
    | 'NAME_DUPLICATED';
}

const MAX_EVENTS = 25;
const MAX_PARAMS = 25;
const MAX_USER_PROPERTIES = 25;
const MAX_NAME = 40;
const MAX_USER_PROPERTY_NAME = 24;
const MAX_PARAM_VALUE = 100;
const MAX_USER_PROPERTY_VALUE = 36;
/** Events may be dated up to 72 hours back. */
const MAX_BACKDATE_MICROS = 72 * 3600 * 1_000_000;
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const RESERVED_PREFIXES = ['google_', 'ga_', 'firebase_'];
const RESERVED_EVENT_NAMES = new Set([
  'ad_activeview',
  'ad_click',
  'ad_exposure',
  'ad_query',
  'ad_reward',
  'adunit_exposure',
  'app_clear_data',
  'app_exception',
  'app_install',
  'app_remove',
  'app_store_refund',
  'app_update',
  'app_upgrade',
  'dynamic_link_app_open',
  'dynamic_link_app_update',
  'dynamic_link_first_open',
  'error',
  'firebase_campaign',
  'firebase_in_app_message_action',
  'firebase_in_app_message_dismiss',
  'firebase_in_app_message_impression',
  'first_open',
  'first_visit',
  'in_app_purchase',
  'notification_dismiss',
  'notification_foreground',
  'notification_open',
  'notification_receive',
  'notification_send',
  'os_update',
  'session_start',
  'user_engagement',
]);
const RESERVED_USER_PROPERTIES = new Set([
  'first_open_time',
  'first_visit_time',
  'last_deep_link_referrer',
  'user_id',
  'first_open_after_install',
]);
const TOP_LEVEL_FIELDS = new Set([
  'client_id',
  'app_instance_id',
  'user_id',
  'timestamp_micros',
  'user_properties',
  'consent',
  'non_personalized_ads',
  'user_data',
  'user_location',
  'ip_override',
  'device',
  'validation_behavior',
  'events',
]);

/** Every rule the body breaks; empty when Google would collect it. `nowMicros` dates the check. */
export function validateGa4Body(body: unknown, nowMicros: number): Ga4ValidationMessage[] {
  if (!isObject(body)) return [message('', 'Unable to parse the request body as JSON.', 'VALUE_INVALID')];
  const messages: Ga4ValidationMessage[] = [];
  for (const key of Object.keys(body))
    if (!TOP_LEVEL_FIELDS.has(key)) messages.push(message(key, `Unknown field [${key}].`, 'NAME_INVALID'));
  if (typeof body.client_id !== 'string' || body.client_id === '')
    messages.push(message('client_id', 'Measurement requires a client_id.', 'VALUE_REQUIRED'));
  if (body.timestamp_micros !== undefined)
    messages.push(...timestampProblems(body.timestamp_micros, nowMicros));
  if (body.user_properties !== undefined) messages.push(...userPropertyProblems(body.user_properties));
  messages.push(...eventProblems(body.events));
  return messages;
}

function timestampProblems(value: unknown, nowMicros: number): Ga4ValidationMessage[] {
  // The JSON number or its decimal string form; either way whole microseconds.
  const micros = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof micros !== 'number' || !Number.isInteger(micros) || micros < 0)
    return [
      message(
        'timestamp_micros',
        'timestamp_micros must be whole microseconds since the epoch.',
        'VALUE_INVALID',
      ),
    ];
  if (micros > nowMicros)
    return [message('timestamp_micros', 'timestamp_micros is in the future.', 'VALUE_INVALID')];
  if (nowMicros - micros > MAX_BACKDATE_MICROS)
    return [
      message(
        'timestamp_micros',
        'timestamp_micros is more than 72 hours in the past.',
        'VALUE_OUT_OF_BOUNDS',
      ),
    ];
  return [];
}

function userPropertyProblems(value: unknown): Ga4ValidationMessage[] {
  if (!isObject(value))
    return [message('user_properties', 'user_properties must be an object.', 'VALUE_INVALID')];
  const names = Object.keys(value);
  const messages: Ga4ValidationMessage[] = [];
  if (names.length > MAX_USER_PROPERTIES)
    messages.push(
      message('user_properties', `At most ${MAX_USER_PROPERTIES} user properties.`, 'EXCEEDED_MAX_ENTITIES'),
    );
  for (const name of names) {
    const path = `user_properties.${name}`;
    if (name.length > MAX_USER_PROPERTY_NAME || !NAME.test(name))
      messages.push(message(path, `User property name [${name}] is invalid.`, 'NAME_INVALID'));
    else if (RESERVED_USER_PROPERTIES.has(name) || hasReservedPrefix(name))
      messages.push(message(path, `User property name [${name}] is reserved.`, 'NAME_RESERVED'));
    const property = value[name];
    const propertyValue = isObject(property) ? property.value : undefined;
    if (typeof propertyValue === 'string' && propertyValue.length > MAX_USER_PROPERTY_VALUE)
      messages.push(
        message(
          path,
          `User property value is longer than ${MAX_USER_PROPERTY_VALUE}.`,
          'VALUE_OUT_OF_BOUNDS',
        ),
      );
  }
  return messages;
}

function eventProblems(events: unknown): Ga4ValidationMessage[] {
  if (!Array.isArray(events) || events.length === 0)
    return [message('events', 'Measurement requires at least one event.', 'VALUE_REQUIRED')];
  if (events.length > MAX_EVENTS)
    return [message('events', `A request holds at most ${MAX_EVENTS} events.`, 'EXCEEDED_MAX_ENTITIES')];
  const messages: Ga4ValidationMessage[] = [];
  events.forEach((event: unknown, index) => {
    const at = `events[${index}]`;
    if (!isObject(event)) {
      messages.push(message(at, `Event at index: [${index}] is not an object.`, 'VALUE_INVALID'));
      return;
    }
    const name = event.name;
    if (typeof name !== 'string' || name === '')
      messages.push(message(`${at}.name`, `Event at index: [${index}] has no name.`, 'VALUE_REQUIRED'));
    else if (name.length > MAX_NAME || !NAME.test(name))
      messages.push(
        message(
          'events',
          `Event at index: [${index}] has invalid name [${name}]. Names must start with an alphabetic character.`,
          'NAME_INVALID',
        ),
      );
    else if (RESERVED_EVENT_NAMES.has(name) || hasReservedPrefix(name))
      messages.push(
        message('events', `Event at index: [${index}] has reserved name [${name}].`, 'NAME_RESERVED'),
      );
    if (event.params === undefined) return;
    if (!isObject(event.params)) {
      messages.push(message(`${at}.params`, 'params must be an object.', 'VALUE_INVALID'));
      return;
    }
    const params = Object.entries(event.params);
    if (params.length > MAX_PARAMS)
      messages.push(
        message(`${at}.params`, `An event holds at most ${MAX_PARAMS} params.`, 'EXCEEDED_MAX_ENTITIES'),
      );
    for (const [param, value] of params) {
      const path = `${at}.params.${param}`;
      if (param.length > MAX_NAME || !NAME.test(param))
        messages.push(message(path, `Param name [${param}] is invalid.`, 'NAME_INVALID'));
      else if (param === 'firebase_conversion' || hasReservedPrefix(param))
        messages.push(message(path, `Param name [${param}] is reserved.`, 'NAME_RESERVED'));
      if (typeof value === 'string' && value.length > MAX_PARAM_VALUE)
        messages.push(message(path, `Param value is longer than ${MAX_PARAM_VALUE}.`, 'VALUE_OUT_OF_BOUNDS'));
      else if (typeof value !== 'string' && typeof value !== 'number' && !Array.isArray(value))
        messages.push(message(path, 'Param value must be a string or a number.', 'VALUE_INVALID'));
    }
  });
  return messages;
}

function hasReservedPrefix(name: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

function message(
  fieldPath: string,
  description: string,
  validationCode: Ga4ValidationMessage['validationCode'],
): Ga4ValidationMessage {
  return { fieldPath, description, validationCode };
}
