import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One verb of a TwiML document as the provider reads it. */
export interface TwimlVerb {
  name: string;
  attributes: Record<string, string>;
  /** Text content (Say, Play, Number). */
  text: string;
  children: TwimlVerb[];
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Parses a TwiML answer; throws when it is not well-formed XML or has no `<Response>` root. */
export function readTwiml(xml: string): TwimlVerb[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`TwiML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
  const nodes = parser.parse(xml) as Ordered[];
  const response = nodes.find((node) => 'Response' in node);
  if (response === undefined) throw new Error('TwiML has no <Response> root');
  return toVerbs(response.Response as Ordered[]);
}

function toVerbs(nodes: Ordered[]): TwimlVerb[] {
  const verbs: TwimlVerb[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (name === undefined || name === '#text') continue;
    const content = (node[name] as Ordered[]) ?? [];
    const text = content
      .filter((child) => '#text' in child)
      .map((child) => String(child['#text']))
      .join('');
    verbs.push({ name, attributes: node[':@'] ?? {}, text, children: toVerbs(content) });
  }
  return verbs;
}
