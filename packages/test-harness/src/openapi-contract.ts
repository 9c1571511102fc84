import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { jsonOfXml } from './xml-answer';

/** One answer as a test client received it, with what the client asked. */
export interface ObservedExchange {
  method: string;
  /** The request target as sent: path and query. */
  target: string;
  requestHeaders?: Record<string, string | number | undefined>;
  status: number;
  /** Response headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ContractOptions {
  /**
   * The document as the service serves it, from the written one (management adds the path forms
   * its router answers).
   */
  served?: (document: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Maps a request path onto the document's path names: strips a version segment the `servers`
   * URL already carries, moves a format suffix to where the document writes it.
   */
  normalizePath?: (pathname: string, query: URLSearchParams) => string;
  /**
   * Statuses the HTTP server itself answers on any path before an operation is chosen (431 for a
   * request line or headers over the server's limit), as the document's description says.
   */
  platformStatuses?: readonly number[];
  /**
   * The element name of one item of an array field in an XML answer, where it is not the field's
   * name without its plural ending (`used_by` → `item`).
   */
  xmlItemNames?: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;

interface CompiledPath {
  template: string;
  pattern: RegExp;
  literals: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

/**
 * Checks answers against an OpenAPI 3.1 document: the operation (path and method) must exist, the
 * status must be documented for it, the content type must be one the status documents, a JSON body
 * must match that media type's schema (ajv, JSON Schema 2020-12 with formats) and the headers the
 * response marks `required` must be there. An XML body is read back into the JSON answer it stands
 * for (xml-answer.ts) and validated against the JSON form's schema of the same response, so the two
 * forms cannot drift apart. An answer to a path the document does not have (an
 * unknown path's 404) is not the document's business and is only counted; a 405 or 501 for a
 * method a known path lacks is the documented platform rule (the document's description).
 */
export class OpenApiContract {
  private readonly document: Json;
  private readonly ajv: Ajv2020;
  private readonly paths: CompiledPath[];
  private readonly validators = new Map<string, ValidateFunction>();
  /** How many answers were checked against an operation, and how many named no path of the document. */
  readonly counts = { checked: 0, unmatched: 0 };

  constructor(
    documentText: string,
    private readonly options: ContractOptions = {},
  ) {
    const written = parse(documentText) as Json;
    this.document = options.served?.(written) ?? written;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, 'doc');
    this.paths = Object.keys(this.document.paths as Json).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      ),
      literals: template.replace(/\{[^}]+\}/g, '').length,
    }));
  }

  static fromFile(path: string, options?: ContractOptions): OpenApiContract {
    return new OpenApiContract(readFileSync(path, 'utf8'), options);
  }

  /**
   * `docs/openapi/<file>` of the repository. Found from this package, whose `src/` and `dist/` both
   * sit three levels below the root: a caller's own depth differs between its sources and its
   * builds (`dist-test/src/` when a service's benches are built beside it, docs/testing.md).
   */
  static fromDocs(file: string, options?: ContractOptions): OpenApiContract {
    return OpenApiContract.fromFile(join(__dirname, '../../..', 'docs/openapi', file), options);
  }

  /** Throws an Error saying what in the answer the document does not allow. */
  check(exchange: ObservedExchange): void {
    const problems = this.problems(exchange);
    if (problems.length > 0) {
      throw new Error(
        `${exchange.method} ${exchange.target} answered ${exchange.status}, which the API document does not allow:\n` +
          `  ${problems.join('\n  ')}\n  body: ${exchange.body.slice(0, 500)}`,
      );
    }
  }

  /** What in the answer the document does not allow; empty when it does. */
  problems(exchange: ObservedExchange): string[] {
    const [rawPath, query = ''] = exchange.target.split('?', 2);
    const pathname = this.options.normalizePath?.(rawPath, new URLSearchParams(query)) ?? rawPath;
    const path = this.matchPath(pathname);
    if (path === undefined) {
      this.counts.unmatched += 1;
      return [];
    }
    this.counts.checked += 1;
    if (this.options.platformStatuses?.includes(exchange.status)) return [];
    const method = effectiveMethod(exchange, new URLSearchParams(query));
    // A path item may be a `$ref` to another (the `.xml` forms of the management API).
    const item = this.resolve((this.document.paths as Json)[path.template], ['paths', path.template]);
    const pointer = [...item.pointer, method];
    const operation = item.node[method] as Json | undefined;
    if (operation === undefined) {
      return exchange.status === 405 || exchange.status === 501
        ? []
        : [`no operation ${method.toUpperCase()} ${path.template}`];
    }
    const responses = operation.responses as Record<string, unknown>;
    const status = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find(
      (key) => responses[key] !== undefined,
    );
    if (status === undefined)
      return [`status ${exchange.status} is not documented for ${method.toUpperCase()} ${path.template}`];
    const { node: response, pointer: responsePointer } = this.resolve(responses[status], [
      ...pointer,
      'responses',
      status,
    ]);
    return [
      ...this.headerProblems(response, exchange),
      ...this.bodyProblems(response, responsePointer, exchange),
    ];
  }

  private matchPath(pathname: string): CompiledPath | undefined {
    const hits = this.paths.filter((path) => path.pattern.test(pathname));
    return hits.sort((a, b) => b.literals - a.literals)[0];
  }

  private headerProblems(response: Json, exchange: ObservedExchange): string[] {
    const headers = (response.headers ?? {}) as Record<string, unknown>;
    return Object.entries(headers)
      .filter(([, header]) => (this.resolve(header, []).node as Json).required === true)
      .filter(([name]) => exchange.headers[name.toLowerCase()] === undefined)
      .map(([name]) => `required header ${name} is missing`);
  }

  private bodyProblems(response: Json, pointer: string[], exchange: ObservedExchange): string[] {
    const content = response.content as Record<string, Json> | undefined;
    const contentType = String(exchange.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (content === undefined) {
      return exchange.body === '' ? [] : [`a body (${contentType}) where the document shows none`];
    }
    if (!(contentType in content))
      return [`content type "${contentType}" is not one of ${Object.keys(content).join(', ')}`];
    if (exchange.method.toUpperCase() === 'HEAD') return [];
    const media = content[contentType];
    if (/xml/.test(contentType) && content['application/json']?.schema !== undefined)
      return this.xmlProblems(content['application/json'].schema, pointer, exchange.body);
    if (media.schema === undefined || !/json/.test(contentType)) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      return ['the body is not JSON'];
    }
    return this.schemaProblems([...pointer, 'content', contentType, 'schema'], body, 'body');
  }

  /** An XML answer read as the JSON answer it stands for, then held to the JSON form's schema. */
  private xmlProblems(jsonSchema: unknown, pointer: string[], xml: string): string[] {
    const { json, problems } = jsonOfXml(
      xml,
      jsonSchema,
      (schema) => this.resolve(schema, []).node,
      (field) => this.xmlItemName(field),
    );
    if (problems.length > 0 || json === undefined) return problems.map((problem) => `xml: ${problem}`);
    return this.schemaProblems([...pointer, 'content', 'application/json', 'schema'], json, 'xml as json');
  }

  private xmlItemName(field: string): string {
    const named = this.options.xmlItemNames?.[field];
    if (named !== undefined) return named;
    if (field.endsWith('ies')) return `${field.slice(0, -3)}y`;
    return field.endsWith('s') && field.length > 1 ? field.slice(0, -1) : 'item';
  }

  private schemaProblems(pointer: string[], value: unknown, label: string): string[] {
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${label}${error.instancePath} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`,
    );
  }

  private validator(pointer: string[]): ValidateFunction {
    const ref = `doc#/${pointer.map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
    let validate = this.validators.get(ref);
    if (validate === undefined) {
      validate = this.ajv.getSchema(ref);
      if (validate === undefined) throw new Error(`no schema at ${ref}`);
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** Follows `$ref`s, returning the node and the pointer where it lives (schemas resolve from there). */
  private resolve(node: unknown, pointer: string[]): { node: Json; pointer: string[] } {
    let current = node as Json;
    let at = pointer;
    while (typeof current?.$ref === 'string') {
      at = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      current = at.reduce<Json>((parent, key) => parent[key] as Json, this.document);
    }
    return { node: current, pointer: at };
  }
}

/** HEAD is answered as GET; a POST may stand for another method (`_method`, `X-HTTP-Method-Override`). */
function effectiveMethod(exchange: ObservedExchange, query: URLSearchParams): string {
  const method = exchange.method.toLowerCase();
  if (method === 'head') return 'get';
  if (method !== 'post') return method;
  const header = Object.entries(exchange.requestHeaders ?? {}).find(
    ([name]) => name.toLowerCase() === 'x-http-method-override',
  )?.[1];
  const override = (
    query.get('_method') ?? (header === undefined ? undefined : String(header))
  )?.toLowerCase();
  return override !== undefined && METHODS.includes(override) ? override : method;
}
