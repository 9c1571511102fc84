import { OpenApiContract, type ObservedExchange } from './openapi-contract';

const DOCUMENT = `
openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /customers/{customer_id}:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Customers' }
            application/xml:
              schema: { type: string }
        '429':
          description: slow down
          headers:
            Retry-After: { required: true, schema: { type: string } }
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Error' }
  /customers/campaigns:
    get:
      responses:
        '204': { description: nothing }
components:
  schemas:
    Error:
      type: object
      required: [error]
      properties: { error: { type: string } }
    Customers:
      type: object
      required: [customers]
      properties:
        customers:
          type: array
          items:
            type: object
            required: [customer_id]
            properties: { customer_id: { type: string, pattern: '^[0-9]+$' } }
`;

const answer = (overrides: Partial<ObservedExchange>): ObservedExchange => ({
  method: 'GET',
  target: '/customers/7',
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ customers: [{ customer_id: '7' }] }),
  ...overrides,
});

describe('OpenApiContract', () => {
  const contract = new OpenApiContract(DOCUMENT, { normalizePath: (path) => path.replace(/^\/v1/, '') });

  it('accepts an answer the document allows, through $refs, a version prefix and a query', () => {
    expect(contract.problems(answer({ target: '/v1/customers/7?x=1' }))).toEqual([]);
    expect(
      contract.problems(
        answer({
          headers: { 'content-type': 'application/xml' },
          body: '<?xml version="1.0" encoding="UTF-8"?>\n<customers><customer><customer_id>7</customer_id></customer></customers>',
        }),
      ),
    ).toEqual([]);
  });

  it('refuses a body that breaks the schema: a missing required field, a wrong pattern', () => {
    expect(contract.problems(answer({ body: JSON.stringify({ customers: [{}] }) }))).toEqual([
      expect.stringContaining("must have required property 'customer_id'"),
    ]);
    expect(
      contract.problems(answer({ body: JSON.stringify({ customers: [{ customer_id: 'x' }] }) })),
    ).toEqual([expect.stringContaining('/customers/0/customer_id must match pattern')]);
  });

  it('refuses an undocumented status, content type or method, and a missing required header', () => {
    expect(contract.problems(answer({ status: 401 }))).toEqual([
      'status 401 is not documented for GET /customers/{customer_id}',
    ]);
    expect(contract.problems(answer({ headers: { 'content-type': 'text/html' } }))).toEqual([
      'content type "text/html" is not one of application/json, application/xml',
    ]);
    expect(contract.problems(answer({ method: 'PUT' }))).toEqual([
      'no operation PUT /customers/{customer_id}',
    ]);
    expect(contract.problems(answer({ status: 429, body: JSON.stringify({ error: 'slow' }) }))).toEqual([
      'required header Retry-After is missing',
    ]);
  });

  it('prefers a literal segment to a parameter, and a body-less status has no body', () => {
    expect(contract.problems(answer({ target: '/customers/campaigns', status: 204, body: '' }))).toEqual([]);
    expect(contract.problems(answer({ target: '/customers/campaigns', status: 204 }))).toEqual([
      'a body (application/json) where the document shows none',
    ]);
  });

  it('leaves paths the document does not have and the platform 405 alone, counting what it checked', () => {
    const counted = new OpenApiContract(DOCUMENT);
    expect(counted.problems(answer({ target: '/nowhere', status: 404 }))).toEqual([]);
    expect(counted.problems(answer({ method: 'DELETE', status: 405 }))).toEqual([]);
    expect(counted.counts).toEqual({ checked: 1, unmatched: 1 });
    expect(() => counted.check(answer({ status: 500 }))).toThrow(/GET \/customers\/7 answered 500/);
  });
});

describe('OpenApiContract with a path item that refers to another', () => {
  const contract = new OpenApiContract(
    DOCUMENT.replace(
      /\ncomponents:/,
      "\n  /customers.xml/{customer_id}: { $ref: '#/paths/~1customers~1{customer_id}' }\ncomponents:",
    ),
  );

  it("checks the answer against the referred item's operations", () => {
    const xml = { headers: { 'content-type': 'application/xml; charset=utf-8' }, body: '<customers/>' };
    expect(contract.problems(answer({ target: '/customers.xml/7', ...xml }))).toEqual([]);
    expect(contract.problems(answer({ target: '/customers.xml/7', status: 401, ...xml }))).toEqual([
      'status 401 is not documented for GET /customers.xml/{customer_id}',
    ]);
  });
});

/** docs/partner-api.md, XML: each XML answer is read back into its JSON form and held to that schema. */
describe('OpenApiContract on XML answers', () => {
  const XML_DOCUMENT = `
openapi: 3.1.0
info: { title: t, version: '1' }
paths:
  /cdrs:
    get:
      responses:
        '200':
          description: a page
          content:
            application/json: { schema: { $ref: '#/components/schemas/Page' } }
            application/xml: { schema: { type: string } }
        '400':
          description: refused
          content:
            application/json: { schema: { $ref: '#/components/schemas/Error' } }
            application/xml: { schema: { type: string } }
  /campaigns/{id}:
    get:
      responses:
        '200':
          description: one record
          content:
            application/json:
              schema:
                type: object
                required: [campaigns]
                properties: { campaigns: { $ref: '#/components/schemas/Campaign' } }
            application/xml: { schema: { type: string } }
components:
  schemas:
    Error:
      type: object
      required: [error]
      additionalProperties: false
      properties:
        error:
          type: object
          required: [status, message]
          additionalProperties: false
          properties: { status: { type: integer }, message: { type: string } }
    Page:
      type: object
      required: [total, cdrs]
      additionalProperties: false
      properties:
        total: { type: integer }
        cdrs:
          type: array
          items:
            type: object
            required: [cdr_id, anum]
            additionalProperties: false
            properties:
              cdr_id: { type: string, pattern: '^[0-9]+$' }
              anum: { type: [string, 'null'] }
    Campaign:
      type: object
      required: [campaign_id, used_by]
      additionalProperties: false
      properties:
        campaign_id: { type: string }
        used_by:
          type: object
          properties:
            sources: { type: object, additionalProperties: { type: string } }
`;
  const contract = new OpenApiContract(XML_DOCUMENT, { xmlItemNames: { used_by: 'item' } });
  const xml = (target: string, body: string, status = 200) =>
    contract.problems({
      method: 'GET',
      target,
      status,
      headers: { 'content-type': 'application/xml; charset=utf-8' },
      body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
    });

  it('accepts the documented forms: a page with its figures, null as an empty element, an error, a record, an id-keyed map', () => {
    expect(
      xml(
        '/cdrs',
        '<cdrs><total>2</total><cdr><cdr_id>1</cdr_id><anum/></cdr><cdr><cdr_id>2</cdr_id><anum>+4791</anum></cdr></cdrs>',
      ),
    ).toEqual([]);
    expect(xml('/cdrs', '<cdrs><total>0</total></cdrs>')).toEqual([]);
    expect(
      xml('/cdrs', '<error><status>400</status><message>page: must be a number</message></error>', 400),
    ).toEqual([]);
    expect(
      xml(
        '/campaigns/3',
        '<campaigns><campaign><campaign_id>3</campaign_id><used_by><sources><source id="12">Main ad</source></sources></used_by></campaign></campaigns>',
      ),
    ).toEqual([]);
  });

  it('refuses XML that has drifted from the JSON form: a missing or unknown field, a wrong item or root name, a text count', () => {
    expect(xml('/cdrs', '<cdrs><total>1</total><cdr><anum/></cdr></cdrs>')).toEqual([
      expect.stringContaining("xml as json/cdrs/0 must have required property 'cdr_id'"),
    ]);
    expect(
      xml('/cdrs', '<cdrs><total>1</total><cdr><cdr_id>1</cdr_id><anum/><extra>x</extra></cdr></cdrs>'),
    ).toEqual([expect.stringContaining('xml as json/cdrs/0 must NOT have additional properties')]);
    expect(xml('/cdrs', '<cdrs><total>1</total><record><cdr_id>1</cdr_id><anum/></record></cdrs>')).toEqual([
      'xml: <record> in <cdrs> where the items are <cdr>',
    ]);
    expect(xml('/cdrs', '<calls><total>0</total></calls>')).toEqual([
      'xml: root element <calls> is not one of total, cdrs',
    ]);
    expect(xml('/cdrs', '<cdrs><total>many</total></cdrs>')).toEqual([
      expect.stringContaining('xml as json/total must be integer'),
    ]);
    expect(xml('/cdrs', '<error><status>400</status></error>', 400)).toEqual([
      expect.stringContaining("xml as json/error must have required property 'message'"),
    ]);
    expect(xml('/cdrs', '<cdrs><total>1</total><cdr><cdr_id>1</cdr_id>')).toEqual([
      expect.stringMatching(/^xml: the body is not XML/),
    ]);
    expect(
      xml('/campaigns/3', '<campaigns><campaign><campaign_id>3</campaign_id></campaign></campaigns>'),
    ).toEqual([expect.stringContaining("must have required property 'used_by'")]);
  });
});
