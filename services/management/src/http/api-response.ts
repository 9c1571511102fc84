/**
 * What a route handler returns. The renderer turns it into JSON or XML (docs/openapi/management.yaml):
 * records are wrapped under the plural resource name; in XML each record is an element with the
 * singular name. The switch's and the provider's endpoints answer in their own fixed formats
 * (`json`, `document`).
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
  /**
   * `{ "next_cursor", "more", "cdr_changes": [...] }`: a feed read by cursor rather than by page
   * (docs/cdrs.md, Change feed); `more` is a "0"/"1" flag.
   */
  | {
      kind: 'cursor';
      names: ResourceNames;
      records: ApiRecord[];
      nextCursor: string;
      more: boolean;
      status?: number;
    }
  /** A bare object under a root name, e.g. `{ "ping": "ok" }` with XML `<ping>ok</ping>`. */
  | { kind: 'value'; root: string; value: ApiValue; status?: number }
  /** A JSON body as it is, whatever the request asked for (the switch's endpoints). */
  | { kind: 'json'; body: unknown; status?: number }
  /** A finished document (TwiML, audio) with its own content type and headers. */
  | {
      kind: 'document';
      contentType: string;
      body: string | Buffer;
      headers?: Record<string, string>;
      status?: number;
    };
