import { ValidationError } from '@trackline/domain';
import { parseCallTime } from './call-time';

describe('parseCallTime', () => {
  it('reads the seed form as UTC', () => {
    expect(parseCallTime('at', '2026-03-29 00:30:00').toISOString()).toBe('2026-03-29T00:30:00.000Z');
  });

  it('reads ISO 8601 with an offset', () => {
    expect(parseCallTime('at', '2026-03-29T03:30:00+02:00').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(parseCallTime('at', '2026-03-29T03:30:00+0200').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(parseCallTime('at', '2026-03-29T01:30:00.250Z').toISOString()).toBe('2026-03-29T01:30:00.250Z');
  });

  it('refuses what is not a real time or has no offset', () => {
    for (const bad of [
      '2026-02-30 10:00:00',
      '2026-01-05 24:00:00',
      '2026-01-05T10:00:00',
      '2026-01-05',
      'now',
      1700000000,
    ]) {
      expect(() => parseCallTime('at', bad)).toThrow(ValidationError);
    }
  });
});
