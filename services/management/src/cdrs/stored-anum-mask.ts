/**
 * How a caller's number is masked in storage, for good (docs/privacy.md): the first four characters
 * stay (the "+" and the country code, so the origin can still be counted), every other character
 * becomes "x". A masked number contains an "x", which no caller's number does, so it can never match
 * a live caller's (the unique-caller rule) and masking it again changes nothing.
 */
export function maskStoredAnum(anum: string): string {
  const kept = [...anum].slice(0, STORED_ANUM_KEPT).join('');
  return kept + 'x'.repeat(Math.max([...anum].length - STORED_ANUM_KEPT, 0));
}

export const STORED_ANUM_KEPT = 4;

/** maskStoredAnum in SQL, over the column or parameter named. */
export function maskStoredAnumSql(expression: string): string {
  return `(left(${expression}, ${STORED_ANUM_KEPT}) || repeat('x', greatest(length(${expression}) - ${STORED_ANUM_KEPT}, 0)))`;
}
