import { assembleReport } from './monthly-report-assembly';
import { latestScheduledRun } from './monthly-report-queue';
import { money, renderReportEmail } from './report-email';

describe('latestScheduledRun (06:00 on the 1st, partner time zone)', () => {
  it('is 06:00 local in summer and winter time and in a zone 5:45 from UTC', () => {
    expect(latestScheduledRun('Europe/Oslo', new Date('2026-11-01T05:00:00Z'))?.toISOString()).toBe(
      '2026-11-01T05:00:00.000Z',
    );
    expect(latestScheduledRun('Europe/Oslo', new Date('2026-11-01T04:59:59Z'))?.toISOString()).toBe(
      '2026-10-01T04:00:00.000Z',
    );
    expect(latestScheduledRun('Asia/Kathmandu', new Date('2026-11-01T00:20:00Z'))?.toISOString()).toBe(
      '2026-11-01T00:15:00.000Z',
    );
  });
});

describe('assembleReport', () => {
  const days = ['2026-02-01', '2026-02-02'];
  it('sums totals, sources and days; calls without a source count in totals only', () => {
    const report = assembleReport({
      customerId: '7',
      month: '2026-02',
      timeZone: 'Europe/Oslo',
      days,
      rows: [
        {
          date: '2026-02-01',
          sourceId: '2',
          calls: 3,
          answered: 2,
          voicemails: 1,
          leads: 1,
          commission: '12.50',
        },
        {
          date: '2026-02-02',
          sourceId: '2',
          calls: 1,
          answered: 1,
          voicemails: 0,
          leads: 1,
          commission: '0.05',
        },
        {
          date: '2026-02-02',
          sourceId: '0',
          calls: 2,
          answered: 0,
          voicemails: 0,
          leads: 0,
          commission: '0.00',
        },
        {
          date: '2026-02-02',
          sourceId: '9',
          calls: 1,
          answered: 0,
          voicemails: 0,
          leads: 0,
          commission: '0.00',
        },
      ],
      sources: [
        { sourceId: '2', name: 'Finn ad', active: true },
        { sourceId: '3', name: 'Quiet ad', active: true },
        { sourceId: '9', name: 'Closed ad', active: false },
        { sourceId: '10', name: 'Old ad', active: false },
      ],
    });
    expect(report).toMatchObject({
      calls: 7,
      answered: 3,
      missed: 3,
      voicemails: 1,
      leads: 2,
      commission: '12.55',
    });
    expect(report.sources).toEqual([
      { sourceId: '2', name: 'Finn ad', calls: 4, answered: 3, leads: 2, commission: '12.55' },
      { sourceId: '3', name: 'Quiet ad', calls: 0, answered: 0, leads: 0, commission: '0.00' },
      { sourceId: '9', name: 'Closed ad', calls: 1, answered: 0, leads: 0, commission: '0.00' },
    ]);
    expect(report.days).toEqual([
      { date: '2026-02-01', calls: 3, answered: 2 },
      { date: '2026-02-02', calls: 4, answered: 1 },
    ]);
  });
});

describe('renderReportEmail', () => {
  it('escapes names in the HTML and groups money without floats', () => {
    const report = assembleReport({
      customerId: '7',
      month: '2026-02',
      timeZone: 'Europe/Oslo',
      days: ['2026-02-01'],
      rows: [],
      sources: [{ sourceId: '1', name: '<b>Ad</b> & "more"', active: true }],
    });
    const email = renderReportEmail(report, {
      customerName: 'Bil <AS>',
      chartCid: 'c@x',
      csv: { filename: 'calls-2026-02.csv', rows: 0, truncated: false },
    });
    expect(email.subject).toBe('February 2026 call report for Bil <AS>: 0 calls, 0 leads');
    expect(email.html).toContain('Bil &lt;AS&gt;');
    expect(email.html).toContain('&lt;b&gt;Ad&lt;/b&gt; &amp; &quot;more&quot;');
    expect(email.html).not.toContain('<b>Ad</b>');
    expect(email.text).toContain('<b>Ad</b> & "more": 0 calls');
    expect(money('1234567.05')).toBe('1,234,567.05');
    expect(money('-1000.00')).toBe('-1,000.00');
    expect(money('12.50')).toBe('12.50');
  });
});
