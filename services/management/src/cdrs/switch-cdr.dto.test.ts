import { ValidationError } from '@trackline/domain';
import { parseSwitchCdr } from './switch-cdr.dto';

const RECORD = {
  call_id: 'call-1',
  anum: '+4791234567',
  bnum: '+4722334455',
  start: '2026-03-02 10:00:00',
  duration: '42',
  answered: 1,
};

function refusal(parse: () => unknown): { field: string; rule: string } {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { field: (error as ValidationError).field, rule: (error as ValidationError).rule };
  }
  throw new Error('was accepted');
}

describe('parseSwitchCdr', () => {
  it('reads a record, an empty cnum and a recording of line breaks as left out', () => {
    expect(parseSwitchCdr({ ...RECORD, cnum: '', recording: '\r\n', voicemail: '0' })).toEqual({
      callId: 'call-1',
      anum: '+4791234567',
      bnum: '+4722334455',
      cnum: null,
      start: new Date('2026-03-02T10:00:00Z'),
      durationSeconds: 42,
      answered: true,
      voicemail: false,
      recording: null,
    });
  });

  it.each([['004722334455'], ['4722334455'], ['+47 22 33 44 55'], ['+4722334455 ']])(
    'reads the tracking number %p as replacement routes it',
    (bnum) => {
      expect(parseSwitchCdr({ ...RECORD, bnum }).bnum).toBe('+4722334455');
    },
  );

  it('decodes the recording and reads an empty anum as withheld', () => {
    const input = parseSwitchCdr({ ...RECORD, anum: '', recording: 'AAEC\n+g==' });
    expect(input.anum).toBe('anonymous');
    expect(input.recording).toEqual(Buffer.from([0, 1, 2, 250]));
  });

  it.each([
    [{ ...RECORD, colour: 'red' }, 'colour', 'is not a call record field'],
    [{ ...RECORD, call_id: undefined }, 'call_id', 'is required'],
    [{ ...RECORD, call_id: 'a b' }, 'call_id', 'must be 1 to 128 printable ASCII characters without spaces'],
    [{ ...RECORD, bnum: '22334455' }, 'bnum', 'must be a phone number'],
    [{ ...RECORD, start: null }, 'start', 'must not be null'],
    [{ ...RECORD, duration: '2147483648' }, 'duration', 'must be at most 2147483647 seconds'],
    [{ ...RECORD, answered: true }, 'answered', 'must be 0 or 1 (number or string)'],
    [{ ...RECORD, recording: 'AA*A' }, 'recording', 'must be valid base64'],
    [{ ...RECORD, recording: 5 }, 'recording', 'must be a base64 string'],
  ])('refuses %j naming %s', (record, field, rule) => {
    expect(refusal(() => parseSwitchCdr(record))).toEqual({ field, rule });
  });

  it('refuses what is not an object', () => {
    expect(refusal(() => parseSwitchCdr([RECORD]))).toEqual({
      field: 'record',
      rule: 'must be a JSON object',
    });
  });
});
