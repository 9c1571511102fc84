import { isObject } from './loopback-server';

/** Why Google refuses one conversion of an upload, as a partial failure names it. */
export interface ConversionError {
  errorCode: Record<string, string>;
  message: string;
  /** The conversion's field the error is located at. */
  field: string;
  trigger?: string;
}

export interface ConversionContext {
  customerId: string;
  conversionActionIds: readonly string[];
  clickIds: readonly string[];
  /** Order ids seen so far in this request (filled in by the check). */
  orderIdsInRequest: Set<string>;
  orderIdTaken(conversionAction: string, orderId: string): boolean;
}

const CLICK_CONVERSION_FIELDS = new Set([
  'gclid',
  'gbraid',
  'wbraid',
  'conversionAction',
  'conversionDateTime',
  'conversionValue',
  'currencyCode',
  'orderId',
  'externalAttributionData',
  'customVariables',
  'cartData',
  'userIdentifiers',
  'conversionEnvironment',
  'consent',
  'customerType',
  'userIpAddress',
  'sessionAttributes',
]);
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})[+-](\d{2}):(\d{2})$/;
// Click ids are URL-safe base64 text.
const CLICK_ID = /^[A-Za-z0-9_-]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The first rule one ClickConversion breaks, or null when Google takes it. */
export function checkClickConversion(
  conversion: unknown,
  context: ConversionContext,
): ConversionError | null {
  if (!isObject(conversion))
    return {
      errorCode: { requestError: 'INVALID_INPUT' },
      message: 'The conversion is not an object.',
      field: 'conversion',
    };
  const unknown = Object.keys(conversion).find((key) => !CLICK_CONVERSION_FIELDS.has(key));
  if (unknown !== undefined)
    return {
      errorCode: { requestError: 'UNKNOWN_FIELD' },
      message: `Unknown field ${unknown}.`,
      field: unknown,
    };
  const clicks = (['gclid', 'gbraid', 'wbraid'] as const).filter((key) => conversion[key] !== undefined);
  if (clicks.includes('gbraid') && clicks.includes('wbraid'))
    return upload('GBRAID_WBRAID_BOTH_SET', 'The gbraid and wbraid fields are both set.', 'wbraid');
  if (clicks.length > 1)
    return {
      errorCode: { fieldError: 'VALUE_MUST_BE_UNSET' },
      message: 'Only one click identifier may be set.',
      field: clicks[1]!,
    };
  if (clicks.length === 0 && conversion.userIdentifiers === undefined)
    return {
      errorCode: { fieldError: 'REQUIRED' },
      message: 'A click identifier or user identifiers are required.',
      field: 'gclid',
    };
  const identifiers = userIdentifierError(conversion.userIdentifiers);
  if (identifiers !== null) return identifiers;
  const action = conversion.conversionAction;
  const actionMatch =
    typeof action === 'string' ? /^customers\/(\d+)\/conversionActions\/(\d+)$/.exec(action) : null;
  if (
    actionMatch === null ||
    actionMatch[1] !== context.customerId ||
    !context.conversionActionIds.includes(actionMatch[2]!)
  )
    return upload(
      'NO_CONVERSION_ACTION_FOUND',
      'The conversion action specified in the upload request cannot be found.',
      'conversionAction',
      String(action),
    );
  const dateTime = conversion.conversionDateTime;
  if (typeof dateTime !== 'string' || !validDateTime(dateTime))
    return {
      errorCode: { dateError: 'INVALID_FIELD_VALUES_IN_DATE_TIME' },
      message: 'The date time is not of the form "yyyy-mm-dd hh:mm:ss+|-hh:mm".',
      field: 'conversionDateTime',
      trigger: String(dateTime),
    };
  const value = conversion.conversionValue;
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
    return {
      errorCode: { fieldError: 'INVALID_VALUE' },
      message: 'conversionValue must be a non-negative number.',
      field: 'conversionValue',
    };
  const currency = conversion.currencyCode;
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)))
    return {
      errorCode: { currencyCodeError: 'UNSUPPORTED' },
      message: 'The currency code is not supported.',
      field: 'currencyCode',
      trigger: String(currency),
    };
  const click = clicks[0];
  if (click !== undefined) {
    const id = conversion[click];
    if (typeof id !== 'string' || !CLICK_ID.test(id))
      return upload(
        `UNPARSEABLE_${click.toUpperCase()}`,
        `The imported ${click} could not be decoded.`,
        click,
        String(id),
      );
    if (!context.clickIds.includes(id))
      return upload('CLICK_NOT_FOUND', 'The imported event could not be attributed to a click.', click, id);
  }
  const orderId = conversion.orderId;
  if (typeof orderId === 'string') {
    if (context.orderIdsInRequest.has(orderId))
      return upload(
        'DUPLICATE_ORDER_ID',
        'The request holds several conversions with the same order id.',
        'orderId',
        orderId,
      );
    context.orderIdsInRequest.add(orderId);
    if (context.orderIdTaken(action as string, orderId))
      return upload(
        'ORDER_ID_ALREADY_IN_USE',
        'A conversion with this order id was already uploaded.',
        'orderId',
        orderId,
      );
  }
  return null;
}

function upload(code: string, message: string, field: string, trigger?: string): ConversionError {
  return {
    errorCode: { conversionUploadError: code },
    message,
    field,
    ...(trigger === undefined ? {} : { trigger }),
  };
}

function userIdentifierError(identifiers: unknown): ConversionError | null {
  if (identifiers === undefined) return null;
  const bad = {
    errorCode: { conversionUploadError: 'INVALID_USER_IDENTIFIER' },
    message: 'User identifiers must be SHA-256 hashes (lowercase hex) of normalised values.',
    field: 'userIdentifiers',
  };
  if (!Array.isArray(identifiers) || identifiers.length > 5) return bad;
  for (const identifier of identifiers) {
    if (!isObject(identifier)) return bad;
    const hashes = ['hashedPhoneNumber', 'hashedEmail'].filter((key) => identifier[key] !== undefined);
    // One identifier per entry; a raw phone number or address is never accepted.
    if (hashes.length !== 1 || !SHA256_HEX.test(String(identifier[hashes[0]!]))) return bad;
  }
  return null;
}

function validDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match
    .slice(1)
    .map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  return (
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHours! <= 14 &&
    offsetMinutes! < 60
  );
}
