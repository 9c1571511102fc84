import { ValidationError } from '@trackline/domain';
import { RecordingFetcher } from './recording-fetcher';

const fetcher = new RecordingFetcher({
  allowedHosts: ['api.twilio.com', '*.signalwire.com', '127.0.0.1:4010'],
  accountSid: 'AC1',
  authToken: 'token',
  timeoutMs: 1000,
  maxBytes: 1024,
});

describe('RecordingFetcher.allowedUrl', () => {
  it('takes the providers’ hosts over https and asks for WAV', () => {
    expect(
      fetcher.allowedUrl('https://api.twilio.com/2010-04-01/Accounts/AC1/Recordings/RE1', 'RecordingUrl')
        .href,
    ).toBe('https://api.twilio.com/2010-04-01/Accounts/AC1/Recordings/RE1.wav');
    expect(
      fetcher.allowedUrl('https://acme.signalwire.com/api/laml/Recordings/RE2.mp3', 'RecordingUrl').href,
    ).toBe('https://acme.signalwire.com/api/laml/Recordings/RE2.mp3');
    // An entry with a port allows plain http to exactly that host and port (a local test server).
    expect(fetcher.allowedUrl('http://127.0.0.1:4010/r/RE3', 'RecordingUrl').href).toBe(
      'http://127.0.0.1:4010/r/RE3.wav',
    );
  });

  it.each([
    'http://api.twilio.com/x', // plain http to a named host
    'https://api.twilio.com:8443/x', // another port
    'https://evil.example/x',
    'https://api.twilio.com.evil.example/x',
    'https://signalwire.com/x', // the wildcard wants a subdomain
    'https://user:pw@api.twilio.com/x',
    'http://127.0.0.1:4011/x',
    'http://169.254.169.254/latest/meta-data',
    'not a url',
  ])('refuses %s', (url) => {
    expect(() => fetcher.allowedUrl(url, 'RecordingUrl')).toThrow(ValidationError);
  });
});
