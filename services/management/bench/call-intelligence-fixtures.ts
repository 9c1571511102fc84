import type { ClassificationRules, SpokenSegment } from '@trackline/domain';

// What callers and answerers say on a classified-ads call, fillers, numbers and ASR slips included.
const CALLER_LINES = [
  'Hi, um, I am calling about the Volvo you have listed, is it still available?',
  'Yeah so, uh, what is the price on that one, and is there any room to negotiate?',
  'Could I maybe come and see it on Saturday, like around eleven?',
  'My number is nine one two three four five six seven if you need to call back.',
  'Hei, jeg ringer angående bilen, er den fortsatt ledig?',
  'Kan jeg komme og se på den i morgen ettermiddag?',
  'And, uh, does it have the winter tires, the service history and all that?',
  'I was also wondering about financing, do you do that through a bank or?',
];
const ANSWERER_LINES = [
  'Yes, it is still for sale, we had a viewing yesterday but no offer yet.',
  'The price is two hundred and forty nine thousand, but we can talk about it.',
  'Sure, Saturday works, the address is on the ad, just ring the bell.',
  'Ja, den er ledig, du kan komme når som helst etter fire.',
  'It has had one owner, full service history, and new brakes last spring.',
  'You can email me at kari dot nordmann at example dot com for the papers.',
  'Mm-hm. Right. Okay, yeah, I see what you mean.',
];

/**
 * A conversation of `minutes` in five-second segments, caller and answerer taking turns: about 150
 * words a minute, as people talk on the phone.
 */
export function conversation(minutes: number): SpokenSegment[] {
  const segments: SpokenSegment[] = [];
  for (let i = 0, at = 0; at < minutes * 60; i++, at += 5) {
    const caller = i % 2 === 0;
    const lines = caller ? CALLER_LINES : ANSWERER_LINES;
    segments.push({
      start: at,
      end: at + 5,
      text: lines[i % lines.length]!,
      channel: caller ? 'caller' : 'answerer',
    });
  }
  return segments;
}

/** A partner's rule lists at their limits: 200 phrases each, of two to four words. */
export function rulesAtTheLimit(): ClassificationRules {
  const list = (stem: string) =>
    Array.from({ length: 200 }, (_, i) => `${stem} ${i} ${i % 3 === 0 ? 'please now' : 'thanks'}`.trim());
  return {
    lead: list('buy'),
    not_a_lead: list('no'),
    existing_customer: list('order'),
    wrong_number: list('wrong'),
    keywords: list('model'),
  };
}
