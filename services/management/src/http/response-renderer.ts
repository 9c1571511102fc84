import type { ApiResponse } from './api-response';
import type { ResponseFormat } from './request-state';
import { singularOf, xmlDocument, xmlFields, xmlText, xmlValue } from './xml-document';

export interface RenderedBody {
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';

/**
 * The one renderer of route answers. JSON wraps records under the plural name (an array; a single
 * object for the `record` kind). Paged answers put total/page/pagesize/numpages first, as JSON
 * numbers: they are counts, not record values (the seed's "values are strings" rule is about
 * records), and numbers let clients compare pages without parsing.
 */
export function renderResponse(response: ApiResponse, format: ResponseFormat): RenderedBody {
  // The switch's and the provider's answers have one format, whatever the request asked for.
  if (response.kind === 'json') return { contentType: JSON_TYPE, body: JSON.stringify(response.body) };
  if (response.kind === 'document')
    return { contentType: response.contentType, body: response.body, headers: response.headers };
  return format === 'xml' ? renderXml(response) : renderJson(response);
}

type NegotiatedResponse = Exclude<ApiResponse, { kind: 'json' } | { kind: 'document' }>;

export function renderError(
  status: number,
  message: string,
  format: ResponseFormat,
): { contentType: string; body: string } {
  if (format === 'xml') {
    return {
      contentType: XML_TYPE,
      body: xmlDocument('error', { status: String(status), message: xmlText(message) }),
    };
  }
  return { contentType: JSON_TYPE, body: JSON.stringify({ error: { status, message } }) };
}

function renderJson(response: NegotiatedResponse): RenderedBody {
  let body: unknown;
  switch (response.kind) {
    case 'records':
      body = { [response.names.plural]: response.records };
      break;
    case 'record':
      body = { [response.names.plural]: response.record };
      break;
    case 'paged':
      body = { ...pageFigures(response), [response.names.plural]: response.records };
      break;
    case 'cursor':
      body = {
        next_cursor: response.nextCursor,
        more: response.more ? '1' : '0',
        [response.names.plural]: response.records,
      };
      break;
    case 'value':
      body = { [response.root]: response.value };
      break;
  }
  return { contentType: JSON_TYPE, body: JSON.stringify(body) };
}

function renderXml(response: NegotiatedResponse): RenderedBody {
  let body: string;
  switch (response.kind) {
    case 'records':
      body = xmlDocument(response.names.plural, {
        [response.names.singular]: response.records.map((record) => xmlFields(record)),
      });
      break;
    case 'record':
      body = xmlDocument(response.names.plural, { [response.names.singular]: xmlFields(response.record) });
      break;
    case 'paged': {
      const figures = pageFigures(response);
      body = xmlDocument(response.names.plural, {
        total: String(figures.total),
        page: String(figures.page),
        pagesize: String(figures.pagesize),
        numpages: String(figures.numpages),
        [response.names.singular]: response.records.map((record) => xmlFields(record)),
      });
      break;
    }
    case 'cursor':
      body = xmlDocument(response.names.plural, {
        next_cursor: response.nextCursor,
        more: response.more ? '1' : '0',
        [response.names.singular]: response.records.map((record) => xmlFields(record)),
      });
      break;
    case 'value': {
      const value = xmlValue(singularOf(response.root), response.value);
      body = xmlDocument(
        response.root,
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? value
          : (value as string | null),
      );
      break;
    }
  }
  return { contentType: XML_TYPE, body };
}

function pageFigures(response: Extract<ApiResponse, { kind: 'paged' }>) {
  return {
    total: response.total,
    page: response.page,
    pagesize: response.pageSize,
    numpages: response.pageSize > 0 ? Math.ceil(response.total / response.pageSize) : 0,
  };
}
