import { DEFAULT_REDACTION, redactSegments, redactText } from './redaction';
import { passesLuhn } from './spoken-digits';

const ALL = DEFAULT_REDACTION;

describe('redaction of card numbers', () => {
  it('checks Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('5555555555554444')).toBe(true);
  });

  it('redacts written card numbers with spaces or dashes', () => {
    expect(redactText('My card is 4111 1111 1111 1111, expiry 12/27.', ALL)).toBe(
      'My card is [card], expiry 12/27.',
    );
    expect(redactText('Kortet er 5555-5555-5555-4444.', ALL, 'no')).toBe('Kortet er [card].');
    expect(redactText('Amex 378282246310005 thanks', ALL)).toBe('Amex [card] thanks');
  });

  it('redacts card numbers spoken as words, with fillers of punctuation and "double"', () => {
    const spoken = 'Yeah so it is four one one one, one one one one, one one one one, one one one one. Okay?';
    expect(redactText(spoken, ALL, 'en')).toBe('Yeah so it is [card]. Okay?');
    expect(redactText(`four double one ${'one '.repeat(13)}okay`, ALL, 'en')).toBe('[card] okay');
    expect(redactText('Nummeret er fire en en en en en en en en en en en en en en en takk', ALL, 'nb')).toBe(
      'Nummeret er [card] takk',
    );
  });

  it('finds the card inside a longer run of digits and keeps the digits around it', () => {
    expect(redactText('4111 1111 1111 1111 12 27', ALL)).toBe('[card] 12 27');
  });

  it('does not call a 16-digit number that fails Luhn a card (a phone number at most)', () => {
    expect(redactText('reference 4111 1111 1111 1112', { ...ALL, phones: false })).toBe(
      'reference 4111 1111 1111 1112',
    );
  });

  it('follows the switch', () => {
    expect(redactText('card 4111 1111 1111 1111', { cards: false, emails: true, phones: false })).toBe(
      'card 4111 1111 1111 1111',
    );
  });
});

describe('redaction of phone numbers', () => {
  it('redacts written numbers in the usual forms', () => {
    expect(redactText('Call me on +47 912 34 567 tonight', ALL)).toBe('Call me on [phone] tonight');
    expect(redactText('ring 22 33 44 55', ALL, 'no')).toBe('ring [phone]');
    expect(redactText('at (555) 123-4567.', ALL)).toBe('at [phone].');
  });

  it('redacts spoken numbers, with "oh" only inside a number', () => {
    expect(redactText('Oh, my number is nine oh one two three four five six.', ALL, 'en')).toBe(
      'Oh, my number is [phone].',
    );
    expect(redactText('nummeret mitt er ni to tre fire fem seks sju åtte', ALL, 'no')).toBe(
      'nummeret mitt er [phone]',
    );
  });

  it('leaves prices, years, models and short numbers alone', () => {
    const text = 'The 2019 Volvo V70 costs 249 000 kroner, or 1 250 000 kr for the other, two owners.';
    expect(redactText(text, ALL, 'en')).toBe(text);
    expect(redactText('I want to see it at four', ALL, 'en')).toBe('I want to see it at four');
  });

  it('reads English "to" as a word in English and as a digit in Norwegian', () => {
    expect(redactText('talk to nine one two three four five six', ALL, 'en')).toBe('talk to [phone]');
    expect(redactText('to tre fire fem seks sju åtte', ALL, 'no')).toBe('[phone]');
  });
});

describe('redaction of e-mail addresses', () => {
  it('redacts written and spoken addresses', () => {
    expect(redactText('mail john.smith@example.no please', ALL)).toBe('mail [email] please');
    expect(redactText('it is john dot smith at gmail dot com okay', ALL)).toBe('it is [email] okay');
    expect(redactText('ola underscore nordmann krøllalfa firma punktum no', ALL, 'no')).toBe('[email]');
    expect(redactText('send it to kari at hotmail.com', ALL)).toBe('send it to [email]');
  });

  it('keeps "at" that is not an address', () => {
    expect(redactText('I am at the office at nine', ALL)).toBe('I am at the office at nine');
  });
});

describe('redaction of timed segments', () => {
  it('reads a number across two segments and labels it where it began', () => {
    const segments = [
      { start: 0, end: 4, text: 'My card is 4111 1111' },
      { start: 4, end: 8, text: '1111 1111 and that is it' },
    ];
    expect(redactSegments(segments, ALL).map((segment) => segment.text)).toEqual([
      'My card is [card]',
      'and that is it',
    ]);
  });

  it("keeps the segments' other fields", () => {
    const [segment] = redactSegments([{ start: 1.5, end: 3, text: 'hello', channel: 'caller' }], ALL);
    expect(segment).toEqual({ start: 1.5, end: 3, text: 'hello', channel: 'caller' });
  });
});
