// node-postgres exports its lib/ modules (package.json "exports"), but @types/pg declares none of them.
declare module 'pg/lib/utils' {
  /** A parameter's text form as node-postgres sends it; a Buffer for binary values, null for null. */
  export function prepareValue(value: unknown): string | Buffer | null;
}
