import { createHash } from 'node:crypto';
import type { Cdr } from '../cdrs/cdr';
import type { GoogleAdsIntegration } from '../integrations/integration';
import type { ClaimedConversion } from './conversion-outbox.store';

/** "yyyy-mm-dd hh:mm:ss+hh:mm", as Google Ads reads conversion times; written in UTC. */
export function conversionDateTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

/**
 * The caller's number as Google's enhanced conversions take it: E.164, then SHA-256 as lowercase
 * hex. Null for a withheld caller or a number that is not E.164 (a short code): nothing is sent then.
 */
export function hashedPhoneNumber(anum: string): string | null {
  if (!/^\+[1-9]\d{6,14}$/.test(anum)) return null;
  return createHash('sha256').update(anum, 'utf8').digest('hex');
}

/**
 * One ClickConversion of the upload (docs/conversions.md, What is sent when): the session's click id,
 * the partner's conversion action, the time, the outcome's value and currency when it has them, and
 * the order id that makes a repeat count once. The caller's number goes only hashed, and only when
 * the partner turned enhanced conversions on.
 */
export function clickConversion(
  cdr: Pick<Cdr, 'anum' | 'marketing'>,
  row: ClaimedConversion,
  integration: GoogleAdsIntegration,
): Record<string, unknown> {
  const actionId =
    row.outcome === null
      ? integration.conversionActionId
      : (integration.outcomeConversionActionId ?? integration.conversionActionId);
  const { gclid, gbraid, wbraid } = cdr.marketing;
  const click = gclid !== null ? { gclid } : gbraid !== null ? { gbraid } : { wbraid };
  const conversion: Record<string, unknown> = {
    ...click,
    conversionAction: `customers/${integration.customerId}/conversionActions/${actionId}`,
    conversionDateTime: conversionDateTime(row.occurredAt),
    orderId: row.orderId,
  };
  if (row.outcome?.value != null && row.outcome.currency !== null) {
    conversion.conversionValue = Number(row.outcome.value);
    conversion.currencyCode = row.outcome.currency;
  }
  const hashed = integration.enhancedConversions ? hashedPhoneNumber(cdr.anum) : null;
  if (hashed !== null) conversion.userIdentifiers = [{ hashedPhoneNumber: hashed }];
  return conversion;
}
