import { ValidationError } from '@trackline/domain';
import { nextDialInTurn, PIN_TRIES, readDialInRequest, type DialInRequest } from './greeting-dial-in';
import { TwilioParams } from './twilio-params';

const DEPS = {
  greetingRecordNumber: '22 00 00 00',
  waitingFor: async (pin: string) => (pin === '123456' ? { id: '42' } : null),
};

const params = (fields: Record<string, string>) => new TwilioParams(new Map(Object.entries(fields)));

describe('greeting dial-in', () => {
  it('answers only the operator number, however it is written, by asking for the PIN', async () => {
    expect(await nextDialInTurn({ step: 'call', dialled: '+4722000000' }, DEPS)).toEqual({
      next: 'ask-pin',
      attempt: 1,
      retry: false,
    });
    expect(await nextDialInTurn({ step: 'call', dialled: '+4722000001' }, DEPS)).toEqual({ next: 'reject' });
    // Too few configured digits to tell one number from another: nothing is answered.
    expect(
      await nextDialInTurn(
        { step: 'call', dialled: '+4722000000' },
        { ...DEPS, greetingRecordNumber: '000' },
      ),
    ).toEqual({
      next: 'reject',
    });
  });

  it('records the greeting waiting for the PIN entered', async () => {
    expect(await nextDialInTurn({ step: 'pin', attempt: 2, digits: '123456' }, DEPS)).toEqual({
      next: 'record',
      greetingId: '42',
    });
  });

  it('asks again after a wrong PIN, and says goodbye after the last try', async () => {
    const wrong = (attempt: number): DialInRequest => ({ step: 'pin', attempt, digits: '999999' });
    expect(await nextDialInTurn(wrong(1), DEPS)).toEqual({ next: 'ask-pin', attempt: 2, retry: true });
    expect(await nextDialInTurn(wrong(PIN_TRIES - 1), DEPS)).toEqual({
      next: 'ask-pin',
      attempt: PIN_TRIES,
      retry: true,
    });
    expect(await nextDialInTurn(wrong(PIN_TRIES), DEPS)).toEqual({ next: 'goodbye-wrong-pin' });
  });

  it('thanks the caller once the greeting is recorded', async () => {
    expect(await nextDialInTurn({ step: 'recorded' }, DEPS)).toEqual({ next: 'goodbye-recorded' });
  });

  it('reads the step from the callback URL and the parameters it needs', () => {
    expect(readDialInRequest({}, params({ To: '+4722000000' }))).toEqual({
      step: 'call',
      dialled: '+4722000000',
    });
    expect(readDialInRequest({ step: 'pin', attempt: '3' }, params({ Digits: '1234' }))).toEqual({
      step: 'pin',
      attempt: 3,
      digits: '1234',
    });
    expect(readDialInRequest({ step: 'pin' }, params({}))).toEqual({ step: 'pin', attempt: 1, digits: '' });
    expect(readDialInRequest({ step: 'recorded' }, params({}))).toEqual({ step: 'recorded' });
  });

  it.each([
    [{}, {}, 'To: is required'],
    [{}, { To: 'operator' }, 'To: must be a phone number'],
    [{ step: 'pin', attempt: '4' }, {}, 'attempt: must be 1 to 3'],
    [{ step: 'pin', attempt: '1.5' }, {}, 'attempt: must be 1 to 3'],
    [{ step: 'hangup' }, {}, 'step: must be pin or recorded'],
  ])('refuses the query %j with the form %j', (query, form, message) => {
    expect(() => readDialInRequest(query, params(form))).toThrow(
      new ValidationError(message.split(': ')[0]!, message.split(': ')[1]!),
    );
  });
});
