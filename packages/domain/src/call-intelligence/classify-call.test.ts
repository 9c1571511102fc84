import { ValidationError } from '../errors';
import { classifyCall, LONG_FIRST_CALL_SECONDS, type CallSignals } from './classify-call';
import {
  DEFAULT_CLASSIFICATION_RULES,
  parseClassificationRules,
  type ClassificationRules,
} from './classification-rules';
import { PhraseFinder, spokenWords } from './phrase-matching';

const ANSWERED: CallSignals = { voicemail: false, spam: false, durationSeconds: 60, firstTimeCaller: true };
const RULES = DEFAULT_CLASSIFICATION_RULES;

function said(...lines: string[]) {
  return lines.map((text, i) => ({ start: i * 5, end: i * 5 + 5, text }));
}

describe('phrase matching', () => {
  const finder = new PhraseFinder(
    spokenWords(
      said('Uh, hi, um, is the, uh, Volvo still, like, available?', 'Jeg vil gjerne PRØVEKJØRE den.'),
    ),
  );

  it('matches on word boundaries, case and accents folded, with a small gap of words', () => {
    expect(finder.find('still available')).toEqual({
      phrase: 'still available',
      matched: 'still like available',
      at: 2.8,
    });
    expect(finder.find('prøvekjøre')?.matched).toBe('PRØVEKJØRE');
    expect(finder.find('provekjore')?.at).toBeGreaterThanOrEqual(5);
    expect(finder.find('uh available')).toBeUndefined(); // three words between: too far apart
    expect(finder.find('avail')).toBeUndefined(); // not a word of its own
    expect(finder.find('avail*')?.matched).toBe('available');
  });
});

describe('classifyCall', () => {
  it('a buyer asking whether the car is still available is a lead, with the words and their time', () => {
    const result = classifyCall(said('Hello?', 'Yeah hi, is the car still available?'), RULES, ANSWERED);
    expect(result.classification).toBe('lead');
    expect(result.reasons).toEqual([
      {
        rule: 'lead',
        phrase: 'still available',
        matched: 'still available',
        at: expect.any(Number) as number,
      },
    ]);
    expect(result.reasons[0]).toMatchObject({ at: expect.closeTo(8, 0) as number });
  });

  it('reads ASR spelling and fillers: "test-drive", "how much is", Norwegian without its letters', () => {
    expect(classifyCall(said('could I, um, test drive it Saturday'), RULES, ANSWERED).classification).toBe(
      'lead',
    );
    expect(classifyCall(said('hva koster den egentlig'), RULES, ANSWERED).classification).toBe('lead');
    expect(classifyCall(said('er den fortsatt ledig'), RULES, ANSWERED).classification).toBe('lead');
    expect(classifyCall(said('Hei, er bilen fremdeles til salgs?'), RULES, ANSWERED).classification).toBe(
      'lead',
    );
  });

  it('a voicemail whose words match a rule takes that class; one without is a voicemail', () => {
    const voicemail = { ...ANSWERED, voicemail: true };
    expect(
      classifyCall(said('Hi, is the Golf still available? Call me back.'), RULES, voicemail).classification,
    ).toBe('lead');
    const plain = classifyCall(said('Hi, call me back when you can.'), RULES, voicemail);
    expect(plain.classification).toBe('voicemail');
    expect(plain.reasons).toEqual([expect.objectContaining({ rule: 'signal', signal: 'voicemail' })]);
  });

  it('a wrong number or an existing customer wins over lead words; "not interested" over a price question', () => {
    expect(classifyCall(said('how much... oh sorry, wrong number'), RULES, ANSWERED).classification).toBe(
      'wrong_number',
    );
    expect(
      classifyCall(said('I bought the Passat from you last month, is the warranty'), RULES, ANSWERED)
        .classification,
    ).toBe('existing_customer');
    expect(
      classifyCall(said('how much is it? ah, then I am not interested'), RULES, ANSWERED).classification,
    ).toBe('not_a_lead');
  });

  it('spam is spam whatever was said, the matched phrases still listed', () => {
    const result = classifyCall(said('is it still available'), RULES, { ...ANSWERED, spam: true });
    expect(result.classification).toBe('spam');
    expect(result.reasons.map((reason) => reason.rule)).toEqual(['signal', 'lead', 'lead']);
  });

  it('without matching words, falls back on the signals', () => {
    const nothing = said('yes. okay. right. bye.');
    expect(classifyCall(nothing, RULES, { ...ANSWERED, durationSeconds: 5 }).classification).toBe(
      'not_a_lead',
    );
    expect(
      classifyCall(nothing, RULES, { ...ANSWERED, durationSeconds: LONG_FIRST_CALL_SECONDS }).classification,
    ).toBe('lead');
    expect(
      classifyCall(nothing, RULES, { ...ANSWERED, firstTimeCaller: false, durationSeconds: 300 }),
    ).toEqual({
      classification: 'unknown',
      reasons: [],
      keywordsSpotted: [],
      keywordHits: [],
    });
  });

  it('spots keywords in the order they were said, each once', () => {
    const result = classifyCall(
      said('Do you offer financing? And is it a hybrid?', 'What about financing again'),
      RULES,
      ANSWERED,
    );
    expect(result.keywordsSpotted).toEqual(['financ*', 'hybrid']);
  });

  it("uses the partner's own rules in place of the defaults", () => {
    const own: ClassificationRules = {
      lead: ['book a service'],
      not_a_lead: [],
      existing_customer: [],
      wrong_number: [],
      keywords: ['XC60'],
    };
    const result = classifyCall(said('I want to book a service for my xc60'), own, ANSWERED);
    expect(result.classification).toBe('lead');
    expect(result.keywordsSpotted).toEqual(['XC60']);
  });
});

describe('parseClassificationRules', () => {
  const valid = {
    lead: ['still available'],
    not_a_lead: [],
    existing_customer: [],
    wrong_number: [],
    keywords: [],
  };

  it('accepts rules and tidies their spaces', () => {
    expect(parseClassificationRules({ ...valid, lead: ['  still   available '] }).lead).toEqual([
      'still available',
    ]);
  });

  it.each([
    [{ ...valid, lead: [''] }, 'lead[0]', 'must contain at least one word'],
    [{ ...valid, lead: ['ok', '?!'] }, 'lead[1]', 'must contain at least one word'],
    [{ ...valid, keywords: 'volvo' }, 'keywords', 'must be a list of phrases'],
    [
      { ...valid, maybe: [] },
      'maybe',
      'unknown class; the lists are lead, not_a_lead, existing_customer, wrong_number, keywords',
    ],
    [{ ...valid, wrong_number: undefined }, 'wrong_number', 'required (an empty list is allowed)'],
    [{ ...valid, lead: Array.from({ length: 201 }, (_, i) => `phrase ${i}`) }, 'lead', 'at most 200 phrases'],
    [{ ...valid, lead: ['a b c d e f g h i'] }, 'lead[0]', 'at most 8 words'],
    [{ ...valid, lead: ['x'.repeat(101)] }, 'lead[0]', 'at most 100 characters'],
    [
      { ...valid, lead: ['Still Available', 'still available'] },
      'lead[1]',
      'repeats an earlier phrase of the list',
    ],
    [{ ...valid, lead: [42] }, 'lead[0]', 'must be a string'],
  ])('refuses %j naming %s', (input, field, rule) => {
    expect(() => parseClassificationRules(input)).toThrow(new ValidationError(field, rule));
  });

  it('holds the built-in rules to the same limits', () => {
    expect(parseClassificationRules(DEFAULT_CLASSIFICATION_RULES)).toEqual(DEFAULT_CLASSIFICATION_RULES);
  });
});
