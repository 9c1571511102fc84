import { ValidationError } from '@trackline/domain';
import { parseCdrInput, parseCdrListQuery } from './cdrs.dto';

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

describe('parseCdrInput', () => {
  it('reads a record, an empty cnum and a recording of line breaks as left out', () => {
    expect(parseCdrInput({ ...RECORD, cnum: '', recording: '\r\n', voicemail: '0' })).toEqual({
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
      expect(parseCdrInput({ ...RECORD, bnum }).bnum).toBe('+4722334455');
    },
  );

  it('decodes the recording and reads an empty anum as withheld', () => {
    const input = parseCdrInput({ ...RECORD, anum: '', recording: 'AAEC\n+g==' });
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
    expect(refusal(() => parseCdrInput(record))).toEqual({ field, rule });
  });

  it('refuses what is not an object', () => {
    expect(refusal(() => parseCdrInput([RECORD]))).toEqual({
      field: 'record',
      rule: 'must be a JSON object',
    });
  });
});

describe('parseCdrListQuery', () => {
  it('reads the filters and the page', () => {
    expect(parseCdrListQuery({ custnr: 'c1', customer_id: '', extended: '1', page: '2' })).toEqual({
      customerId: null,
      custnr: 'c1',
      fromDate: null,
      toDate: null,
      extended: true,
      page: 2,
      pageSize: 1000,
    });
  });

  it.each([
    [{ custnr: 'c1', colour: 'red' }, 'colour', 'is not a known query parameter'],
    [{ customer_id: '', custnr: '' }, 'customer_id', 'customer_id or custnr is required'],
    [{ customer_id: 'x' }, 'customer_id', 'must be a customer id (decimal digits)'],
    [{ custnr: 'c1', pagesize: '0' }, 'pagesize', 'must be a whole number from 1 to 1000'],
    [{ custnr: 'c1', extended: 'yes' }, 'extended', 'must be "0" or "1"'],
  ])('refuses %j naming %s', (query, field, rule) => {
    expect(refusal(() => parseCdrListQuery(query))).toEqual({ field, rule });
  });
});
