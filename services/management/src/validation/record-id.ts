// Row ids as the API shows them. Anything that cannot name a row answers "not found" (docs/partner-api.md,
// Errors), never a query with an out-of-range number or a malformed UUID.
const BIGINT_ID_PATTERN = /^[1-9]\d{0,18}$/;
const MAX_BIGINT = 9223372036854775807n;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A decimal id that fits a Postgres bigint identity (customer_id, source_id, campaign_id, …). */
export function isBigintId(value: string): boolean {
  return BIGINT_ID_PATTERN.test(value) && BigInt(value) <= MAX_BIGINT;
}

/** A UUID in its 8-4-4-4-12 hexadecimal form, either case (pricing_model_id). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
