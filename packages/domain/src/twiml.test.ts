import { escapeXml, parseFormBody, twimlDocument } from './twiml';

describe('twimlDocument', () => {
  it('renders verbs with escaped attributes and text, leaving out undefined attributes', () => {
    expect(
      twimlDocument([
        {
          name: 'Dial',
          attributes: { action: 'https://t.example/d?a=1&b=<2>', timeout: 20, record: undefined },
          children: [{ name: 'Number', children: '+4791000001' }],
        },
        { name: 'Say', children: `Tom & "Jerry's" <b>` },
        { name: 'Hangup' },
      ]),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Dial action="https://t.example/d?a=1&amp;b=&lt;2&gt;" timeout="20"><Number>+4791000001</Number></Dial>' +
        '<Say>Tom &amp; &quot;Jerry&apos;s&quot; &lt;b&gt;</Say><Hangup/></Response>',
    );
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml('a\u0000b\u0007c\td')).toBe('abc\td');
  });
});

describe('parseFormBody', () => {
  it('decodes names and values in arrival order, + as space, repeats kept', () => {
    expect(parseFormBody('To=%2B4791000001&CallerName=Ola+Nordmann&x=1&x=2&Empty=&Bare')).toEqual([
      ['To', '+4791000001'],
      ['CallerName', 'Ola Nordmann'],
      ['x', '1'],
      ['x', '2'],
      ['Empty', ''],
      ['Bare', ''],
    ]);
    expect(parseFormBody('')).toEqual([]);
  });

  it('refuses broken percent escapes', () => {
    expect(parseFormBody('To=%E0%A4%A')).toBeNull();
  });
});
