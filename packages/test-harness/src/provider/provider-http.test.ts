import { formEncode, providerSign } from './provider-http';
import { readTwiml } from './twiml-reader';

describe('the provider simulator', () => {
  it('signs as Twilio documents (its published test vector)', () => {
    const fields: [string, string][] = [
      ['CallSid', 'CA1234567890ABCDE'],
      ['Caller', '+14158675309'],
      ['Digits', '1234'],
      ['From', '+14158675309'],
      ['To', '+18005551212'],
    ];
    expect(providerSign('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', fields)).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
    expect(
      formEncode([
        ['To', '+4791000001'],
        ['CallerName', 'Ola Nordmann'],
      ]),
    ).toBe('To=%2B4791000001&CallerName=Ola+Nordmann');
  });

  it('reads TwiML in document order and refuses a document that is not well-formed', () => {
    expect(
      readTwiml(
        '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Hi &amp; bye</Say><Dial timeout="20"><Number url="https://x.test/s?a=1&amp;b=2">+4722334455</Number></Dial><Hangup/></Response>',
      ),
    ).toEqual([
      { name: 'Say', attributes: {}, text: 'Hi & bye', children: [] },
      {
        name: 'Dial',
        attributes: { timeout: '20' },
        text: '',
        children: [
          {
            name: 'Number',
            attributes: { url: 'https://x.test/s?a=1&b=2' },
            text: '+4722334455',
            children: [],
          },
        ],
      },
      { name: 'Hangup', attributes: {}, text: '', children: [] },
    ]);
    expect(() => readTwiml('<Response><Play>a & b</Play></Response>')).toThrow(/well-formed/);
    expect(() => readTwiml('<Other/>')).toThrow(/Response/);
  });
});
