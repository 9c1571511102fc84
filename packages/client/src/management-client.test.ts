import { xmlErrorMessage } from './management-client';

describe('xmlErrorMessage', () => {
  it('reads the message of an XML error with its escapes undone', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<error><status>400</status><message>name: &quot;A &amp; B&quot; &lt;60 &#229;&#x00F8;</message></error>';
    expect(xmlErrorMessage(400, xml)).toBe('name: "A & B" <60 åø');
  });

  it('falls back to the status for an answer without a message', () => {
    expect(xmlErrorMessage(502, '<html>Bad gateway</html>')).toBe('HTTP 502');
  });
});
