// Ids are bigint identities; anything else cannot name a row (SPEC §6: "not found", never a query
// with an out-of-range number).
const ID_PATTERN = /^[1-9]\d{0,18}$/;
const MAX_BIGINT = 9223372036854775807n;

export function isBigintId(value: string): boolean {
  return ID_PATTERN.test(value) && BigInt(value) <= MAX_BIGINT;
}
