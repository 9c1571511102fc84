import fc from 'fast-check';
import { maskStoredAnum, maskStoredAnumSql } from '../cdrs/stored-anum-mask';
import { nextRunAfter } from './data-lifecycle.job';
import { retentionCutoff } from './data-lifecycle.service';

describe('retentionCutoff', () => {
  it('is the same instant the given number of calendar months before', () => {
    expect(retentionCutoff(new Date('2030-06-15T03:00:00Z'), { cdrRetentionMonths: 24 })).toEqual(
      new Date('2028-06-15T03:00:00Z'),
    );
    expect(retentionCutoff(new Date('2030-01-10T23:59:59.500Z'), { cdrRetentionMonths: 1 })).toEqual(
      new Date('2029-12-10T23:59:59.500Z'),
    );
  });

  it('takes the last day of a shorter month', () => {
    expect(retentionCutoff(new Date('2030-03-31T12:00:00Z'), { cdrRetentionMonths: 1 })).toEqual(
      new Date('2030-02-28T12:00:00Z'),
    );
    expect(retentionCutoff(new Date('2030-05-31T12:00:00Z'), { cdrRetentionMonths: 3 })).toEqual(
      new Date('2030-02-28T12:00:00Z'),
    );
  });

  it('is always before now and never more than the months plus a few days back', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01Z'), max: new Date('2100-01-01Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 1200 }),
        (now, months) => {
          const cutoff = retentionCutoff(now, { cdrRetentionMonths: months });
          const days = (now.getTime() - cutoff.getTime()) / 86_400_000;
          return cutoff < now && days >= months * 28 && days <= months * 31 + 3;
        },
      ),
    );
  });
});

describe('nextRunAfter', () => {
  it('is the next given UTC hour, today or tomorrow', () => {
    expect(nextRunAfter(new Date('2030-06-15T02:59:59Z'), 3)).toEqual(new Date('2030-06-15T03:00:00Z'));
    expect(nextRunAfter(new Date('2030-06-15T03:00:00Z'), 3)).toEqual(new Date('2030-06-16T03:00:00Z'));
    expect(nextRunAfter(new Date('2030-12-31T23:30:00Z'), 0)).toEqual(new Date('2031-01-01T00:00:00Z'));
  });
});

describe('maskStoredAnum', () => {
  it('keeps the first four characters and hides the rest', () => {
    expect(maskStoredAnum('+4791234567')).toBe('+479xxxxxxx');
    expect(maskStoredAnum('+12025550123')).toBe('+120xxxxxxxx');
    expect(maskStoredAnum('112')).toBe('112');
  });

  it('changes nothing when applied again, and the SQL names its argument', () => {
    expect(maskStoredAnum(maskStoredAnum('+4791234567'))).toBe('+479xxxxxxx');
    expect(maskStoredAnumSql('"anum"')).toContain('left("anum", 4)');
  });
});
