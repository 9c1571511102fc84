/**
 * What a route handler returns. The renderer turns it into JSON or XML (docs/partner-api.md, XML): records
 * are wrapped under the plural resource name; in XML each record is an element with the singular name.
 */
export type ApiValue = string | null | ApiValue[] | { [field: string]: ApiValue };
export type ApiRecord = { [field: string]: ApiValue };

export interface ResourceNames {
  /** Plural wrapper / XML root, e.g. `customers`. */
  plural: string;
  /** XML element of one record, e.g. `customer`. */
  singular: string;
}

export type ApiResponse =
  /** `{ "customers": [ {...}, ... ] }` — the usual answer. */
  | { kind: 'records'; names: ResourceNames; records: ApiRecord[]; status?: number }
  /** `{ "campaigns": {...} }` — a created campaign is a single object, not an array. */
  | { kind: 'record'; names: ResourceNames; record: ApiRecord; status?: number }
  /** `{ "total", "page", "pagesize", "numpages", "cdrs": [...] }` */
  | {
      kind: 'paged';
      names: ResourceNames;
      records: ApiRecord[];
      total: number;
      page: number;
      pageSize: number;
      status?: number;
    }
  /** A bare object under a root name, e.g. `{ "ping": "ok" }` with XML `<ping>ok</ping>`. */
  | { kind: 'value'; root: string; value: ApiValue; status?: number };
