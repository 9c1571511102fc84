import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Json = Record<string, unknown>;
/** An element as the parser gives it: its text, or its children by name (repeated ones as a list). */
type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

/** Follows a `$ref` of the document; the schema itself when it has none. */
export type ResolveSchema = (schema: unknown) => Json;

/**
 * What a schema allows, as far as reading an XML element needs it: the JSON types, the properties
 * of an object and its additional properties, an array's items. `allOf`, `oneOf` and `anyOf` are
 * merged — the reading only picks a shape, and the JSON it makes is then validated against the real
 * schema, which decides.
 */
interface SchemaView {
  types: Set<string>;
  properties: Record<string, unknown>;
  additional: unknown;
  items: unknown;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  ignoreDeclaration: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

/** The element name of one item of an array field, as docs/partner-api.md (XML) names them. */
export type SingularOf = (field: string) => string;

/**
 * Reads an XML answer back into the JSON answer it stands for (docs/partner-api.md, XML), guided by
 * the schema of the JSON form: the root element is the JSON's one wrapping field (`customers`,
 * `error`, `ping`); an array field is an element of singular children (`<customer>`), a single record
 * is wrapped in its singular element too; the page figures of a paged answer are children of the
 * root before the records; null is an empty element; an object keyed by ids is singular children
 * with an `id` attribute. Names that break these rules are problems; values are then the schema's
 * business (text becomes a number only where the schema wants a number and not a string).
 */
export function jsonOfXml(
  xml: string,
  schema: unknown,
  resolve: ResolveSchema,
  singularOf: SingularOf,
): { json: unknown; problems: string[] } {
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true)
    return { json: undefined, problems: [`the body is not XML: ${wellFormed.err.msg}`] };
  const document = parser.parse(xml) as Record<string, XmlNode>;
  const roots = Object.keys(document);
  if (roots.length !== 1 || Array.isArray(document[roots[0]]))
    return { json: undefined, problems: ['the XML has not exactly one root element'] };
  const reader = new XmlReader(resolve, singularOf);
  const json = reader.root(roots[0], document[roots[0]], schema);
  return { json, problems: reader.problems };
}

class XmlReader {
  readonly problems: string[] = [];

  constructor(
    private readonly resolve: ResolveSchema,
    private readonly singularOf: SingularOf,
  ) {}

  root(name: string, node: XmlNode, schema: unknown): unknown {
    const top = this.view(schema);
    if (!(name in top.properties)) {
      this.problems.push(`root element <${name}> is not one of ${Object.keys(top.properties).join(', ')}`);
      return undefined;
    }
    const field = this.view(top.properties[name]);
    if (field.types.has('array')) {
      // A list or a page: the page figures are the JSON's other fields, every other child a record.
      const json: Json = {};
      const records: XmlNode[] = [];
      for (const [child, values] of children(node)) {
        if (child !== name && child in top.properties)
          json[child] = this.single(child, values, top.properties[child]);
        else records.push(...this.named(name, child, values));
      }
      json[name] = records.map((record) => this.value(this.singularOf(name), record, field.items));
      return json;
    }
    const wrapped = children(node);
    const singular = this.singularOf(name);
    if (wrapped.length === 1 && wrapped[0][0] === singular && !(singular in field.properties))
      return { [name]: this.single(singular, wrapped[0][1], top.properties[name]) };
    return { [name]: this.value(name, node, top.properties[name]) };
  }

  private value(name: string, node: XmlNode, schema: unknown): unknown {
    const view = this.view(schema);
    if (node === '') {
      if (view.types.has('null')) return null;
      if (view.types.has('array')) return [];
      if (view.types.has('object')) return {};
      return '';
    }
    if (typeof node === 'string') return scalar(node, view);
    if (view.types.has('array')) {
      return children(node).flatMap(([child, values]) =>
        this.named(name, child, values).map((item) => this.value(this.singularOf(name), item, view.items)),
      );
    }
    const entries = children(node);
    const keyed =
      entries.length === 1 && entries[0][0] === this.singularOf(name) && entries[0][1].every(hasId);
    if (keyed && Object.keys(view.properties).length === 0) {
      // An object whose keys are no element names: `<source id="12">Main ad</source>`.
      return Object.fromEntries(
        entries[0][1].map((item) => {
          const { '@_id': id, ...rest } = item as Record<string, XmlNode>;
          const inner =
            '#text' in rest ? (rest['#text'] as XmlNode) : Object.keys(rest).length === 0 ? '' : rest;
          return [String(id), this.value(this.singularOf(name), inner, view.additional)];
        }),
      );
    }
    const json: Json = {};
    for (const [child, values] of entries)
      json[child] = this.single(child, values, view.properties[child] ?? view.additional ?? {});
    return json;
  }

  /** A field that appears once (a repeated one is a problem: only array items repeat). */
  private single(name: string, values: XmlNode[], schema: unknown): unknown {
    if (values.length > 1) this.problems.push(`<${name}> appears ${values.length} times`);
    return this.value(name, values[0], schema);
  }

  /** The items of an array field `parent`, which must be named for one of it. */
  private named(parent: string, child: string, values: XmlNode[]): XmlNode[] {
    const expected = this.singularOf(parent);
    if (child !== expected) this.problems.push(`<${child}> in <${parent}> where the items are <${expected}>`);
    return values;
  }

  private view(schema: unknown, seen = new Set<unknown>()): SchemaView {
    const view: SchemaView = { types: new Set(), properties: {}, additional: undefined, items: undefined };
    if (schema === undefined || schema === true) {
      for (const type of ['string', 'null', 'object', 'array']) view.types.add(type);
      return view;
    }
    const node = this.resolve(schema);
    if (seen.has(node)) return view;
    seen.add(node);
    const type = node.type;
    for (const one of Array.isArray(type) ? type : type === undefined ? [] : [type])
      view.types.add(String(one));
    if ('const' in node) view.types.add(node.const === null ? 'null' : typeof node.const);
    if (Array.isArray(node.enum))
      for (const one of node.enum) view.types.add(one === null ? 'null' : typeof one);
    if (node.properties !== undefined) {
      view.types.add('object');
      Object.assign(view.properties, node.properties);
    }
    if (node.additionalProperties !== undefined && node.additionalProperties !== false)
      view.additional = node.additionalProperties;
    if (node.items !== undefined) {
      view.types.add('array');
      view.items = node.items;
    }
    for (const part of [node.allOf, node.oneOf, node.anyOf].flatMap((list) =>
      Array.isArray(list) ? list : [],
    )) {
      const inner = this.view(part, seen);
      for (const one of inner.types) view.types.add(one);
      for (const [key, value] of Object.entries(inner.properties)) view.properties[key] ??= value;
      view.additional ??= inner.additional;
      view.items ??= inner.items;
    }
    return view;
  }
}

/** The child elements of an element in document order of their first appearance, each with its values. */
function children(node: XmlNode): Array<[string, XmlNode[]]> {
  if (typeof node === 'string') return [];
  return Object.entries(node)
    .filter(([name]) => !name.startsWith('@_') && name !== '#text')
    .map(([name, value]) => [name, Array.isArray(value) ? value : [value]]);
}

function hasId(node: XmlNode): boolean {
  return typeof node === 'object' && '@_id' in node;
}

/** XML text is text: it becomes a number or a boolean only where the schema cannot take a string. */
function scalar(text: string, view: SchemaView): unknown {
  if (view.types.has('string')) return text;
  if ((view.types.has('integer') || view.types.has('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (view.types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
