import { XMLBuilder } from 'fast-xml-parser';
import type { ApiValue } from './api-response';

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// XML 1.0 cannot carry these characters at all, not even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// A surrogate without its partner is not a character at all.
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Element names of array items where "strip the s" would be wrong or unclear. */
const SINGULAR: Record<string, string> = {
  alt_numbers: 'alt_number',
  conditions: 'condition',
  used_by: 'item',
  pricing_models: 'pricing_model',
  voicemail_greetings: 'voicemail_greeting',
  parameters: 'parameter',
  keywords_spotted: 'keyword',
  // Classification rules' phrase lists (docs/call-intelligence.md, API).
  lead: 'phrase',
  not_a_lead: 'phrase',
  existing_customer: 'phrase',
  wrong_number: 'phrase',
};

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  suppressEmptyNode: false,
  format: false,
});

type XmlNode = string | null | XmlNode[] | { [name: string]: XmlNode };

/** The element name of one item of an array (or map) field: alt_numbers → alt_number. */
export function singularOf(field: string): string {
  if (SINGULAR[field] !== undefined) return SINGULAR[field];
  if (field.endsWith('ies')) return `${field.slice(0, -3)}y`;
  if (field.endsWith('s') && field.length > 1) return field.slice(0, -1);
  return 'item';
}

/**
 * The XML shape of docs/partner-api.md, XML: fields as child elements, null as an empty self-closing element,
 * an array as a plural element of singular children, an object as nested elements. An object whose keys
 * cannot be element names (`used_by`/`sources`: source_id → name) becomes singular children with the key in
 * an `id` attribute: `<sources><source id="12">Main ad</source></sources>`.
 */
export function xmlDocument(root: string, content: Record<string, XmlNode> | string | null): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: content ?? null })}`;
}

/** Text an XML 1.0 document can carry: what it cannot becomes U+FFFD (error messages echo input). */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHARACTERS, '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
}

/** Children of an element holding `fields` in order (records, paged wrappers). */
export function xmlFields(fields: Record<string, ApiValue>): Record<string, XmlNode> {
  const node: Record<string, XmlNode> = {};
  for (const [name, value] of Object.entries(fields)) node[name] = xmlValue(name, value);
  return node;
}

export function xmlValue(name: string, value: ApiValue): XmlNode {
  if (value === null) return null;
  if (typeof value === 'string') return xmlText(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    const item = singularOf(name);
    return { [item]: value.map((entry) => xmlValue(item, entry)) };
  }
  const keys = Object.keys(value);
  if (keys.every((key) => XML_NAME.test(key) && !/^xml/i.test(key))) return xmlFields(value);
  const item = singularOf(name);
  return {
    [item]: keys.map((key): XmlNode => {
      const inner = xmlValue(item, value[key]);
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner))
        return { '@_id': key, ...inner };
      return { '@_id': key, '#text': inner ?? '' };
    }),
  };
}
