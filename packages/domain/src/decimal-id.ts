/**
 * Orders ids held as decimal strings (bigint columns read as text) as numbers: "10" after "9".
 * Both must be unsigned decimals without leading zeros, as Postgres renders them.
 */
export function compareDecimalIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
