import type { FormField } from './provider-signature';

/** One TwiML verb or noun: a name, its attributes (undefined ones left out) and its content. */
export interface TwimlNode {
  name: string;
  attributes?: Record<string, string | number | boolean | undefined>;
  /** Text (escaped) or nested elements. */
  children?: string | TwimlNode[];
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

// XML 1.0 allows no C0 control character but tab, LF and CR; a caller name could carry one.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

/** `<?xml …?><Response>…</Response>`: every attribute and text escaped, so the document is always well-formed. */
export function twimlDocument(verbs: readonly TwimlNode[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs.map(render).join('')}</Response>`;
}

function render(node: TwimlNode): string {
  let attributes = '';
  for (const [name, value] of Object.entries(node.attributes ?? {})) {
    if (value !== undefined) attributes += ` ${name}="${escapeXml(String(value))}"`;
  }
  const { children } = node;
  if (children === undefined || children.length === 0) return `<${node.name}${attributes}/>`;
  const content = typeof children === 'string' ? escapeXml(children) : children.map(render).join('');
  return `<${node.name}${attributes}>${content}</${node.name}>`;
}

/**
 * `application/x-www-form-urlencoded` → fields in arrival order (`+` is a space, as browsers and the
 * providers encode). Malformed percent escapes are refused rather than guessed at: null.
 */
export function parseFormBody(body: string): FormField[] | null {
  const fields: FormField[] = [];
  if (body === '') return fields;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawName = at === -1 ? pair : pair.slice(0, at);
    const rawValue = at === -1 ? '' : pair.slice(at + 1);
    try {
      fields.push([
        decodeURIComponent(rawName.replace(/\+/g, ' ')),
        decodeURIComponent(rawValue.replace(/\+/g, ' ')),
      ]);
    } catch {
      return null;
    }
  }
  return fields;
}
