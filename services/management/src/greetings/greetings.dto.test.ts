import { ValidationError } from '@trackline/domain';
import { MAX_RECORDING_BYTES, parseGreetingRecording } from './greetings.dto';

describe('parseGreetingRecording', () => {
  it('decodes base64 audio, also wrapped over lines', () => {
    expect(parseGreetingRecording({ record_pin: '004217', sounddata: 'AAEC\r\n+g==' })).toEqual({
      recordPin: '004217',
      sounddata: Buffer.from([0, 1, 2, 250]),
    });
  });

  it.each([
    [{ sounddata: 'AAAA' }, 'record_pin', 'is required'],
    [{ record_pin: 123456, sounddata: 'AAAA' }, 'record_pin', 'must be six digits'],
    [{ record_pin: null, sounddata: 'AAAA' }, 'record_pin', 'must not be null'],
    [{ record_pin: '12345', sounddata: 'AAAA' }, 'record_pin', 'must be six digits'],
    [{ record_pin: '123456' }, 'sounddata', 'is required'],
    [{ record_pin: '123456', sounddata: '' }, 'sounddata', 'must not be empty'],
    [{ record_pin: '123456', sounddata: 'AAA' }, 'sounddata', 'must be valid base64'],
    [{ record_pin: '123456', sounddata: 'AA*A' }, 'sounddata', 'must be valid base64'],
    [{ record_pin: '123456', sounddata: 5 }, 'sounddata', 'must be a base64 string'],
    [{ record_pin: '123456', sounddata: 'AAAA', extra: '1' }, 'extra', 'is not a known field'],
  ])('refuses %j naming %s', (body, field, rule) => {
    let error: unknown;
    try {
      parseGreetingRecording(body);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field, rule });
  });

  it('refuses a recording over the size limit', () => {
    const tooBig = Buffer.alloc(MAX_RECORDING_BYTES + 3).toString('base64');
    expect(() => parseGreetingRecording({ record_pin: '123456', sounddata: tooBig })).toThrow(/at most/);
  });
});
