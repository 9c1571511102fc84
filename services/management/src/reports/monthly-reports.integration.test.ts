import { xmlList } from '../test-support/partner-api';
import { E2E_TIMEOUT_MS } from '../test-support/e2e-environment';
import { startReportFixture, type FixtureCustomer, type ReportFixture } from '../test-support/report-fixture';

jest.setTimeout(E2E_TIMEOUT_MS);

type Body = Record<string, unknown>;
const RECORDING = Buffer.from('RIFF fake voicemail audio').toString('base64');

// GET /customers/<id>/reports/monthly over HTTPS with digest, on calls the switch delivered through
// POST /telephony/cdrs. The partner is in Europe/Oslo: March 2026 starts at 23:00 UTC on 28 February
// (CET) and ends at 22:00 UTC on 31 March (CEST); October 2026 ends at 23:00 UTC on 31 October.
describe('monthly report figures', () => {
  let fixture: ReportFixture;
  let dealer: FixtureCustomer;
  let other: FixtureCustomer;

  beforeAll(async () => {
    fixture = await startReportFixture();
    dealer = await fixture.addCustomer(
      { name: 'Kari Bil AS', custnr: 'K-1', email: 'kari@example.no', receive_monthly_report: '1' },
      ['Finn ad', 'Website'],
    );
    other = await fixture.addCustomer({ name: 'Ola Bil AS', custnr: 'O-1' }, ['Other ad']);
    await fixture.ingest(dealer, [
      // 23:59:59 on 28 February in Oslo: February.
      { source: 'Finn ad', start: '2026-02-28T22:59:59Z', duration: 60, answered: 1 },
      // 00:00 on 1 March (CET): March, a lead.
      { source: 'Finn ad', start: '2026-02-28T23:00:00Z', duration: 60, answered: 1 },
      { source: 'Website', start: '2026-03-15T12:00:00Z', duration: 120, answered: 1 },
      // 00:30 on 29 March, the night the clocks go forward (still CET): missed.
      { source: 'Finn ad', start: '2026-03-28T23:30:00Z', duration: 0, answered: 0 },
      // 00:30 on 30 March (CEST): a voicemail with its recording.
      {
        source: 'Finn ad',
        start: '2026-03-29T22:30:00Z',
        duration: 25,
        answered: 0,
        voicemail: 1,
        recording: RECORDING,
      },
      // 23:59 on 31 March (CEST): answered, too short for a lead.
      { source: 'Finn ad', start: '2026-03-31T21:59:00Z', duration: 5, answered: 1 },
      // 00:00 on 1 April (CEST): April.
      { source: 'Finn ad', start: '2026-03-31T22:00:00Z', duration: 60, answered: 1 },
      // October: 00:00 on 1 October (CEST) is in; 23:30 on 25 October (CET, after the change) is the
      // 25th; 23:30 on 31 October (CET) is still October; 00:00 on 1 November is not.
      { source: 'Website', start: '2026-09-30T22:00:00Z', duration: 30, answered: 1 },
      { source: 'Website', start: '2026-10-25T22:30:00Z', duration: 30, answered: 0 },
      { source: 'Website', start: '2026-10-31T22:30:00Z', duration: 30, answered: 1 },
      { source: 'Website', start: '2026-10-31T23:00:00Z', duration: 30, answered: 1 },
    ]);
    await fixture.ingest(other, [
      { source: 'Other ad', start: '2026-03-10T10:00:00Z', duration: 60, answered: 1 },
    ]);
  });

  afterAll(async () => {
    await fixture.env.close();
  });

  const report = async (path: string, format: 'json' | 'xml' = 'json') => fixture.env.api.read(path, format);

  function days(body: Body): Array<{ date: string; calls: string; answered: string }> {
    return (body.reports as Body[])[0]!.days as Array<{ date: string; calls: string; answered: string }>;
  }

  it('answers March in the partner time zone: totals, sources and every day', async () => {
    const answer = await report(`/v1/customers/${dealer.customerId}/reports/monthly?month=2026-03`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const record = (answer.body.reports as Body[])[0]!;
    expect({ ...record, days: undefined, outcomes: undefined }).toEqual({
      customer_id: dealer.customerId,
      month: '2026-03',
      calls: '5',
      answered: '3',
      missed: '1',
      voicemails: '1',
      leads: '2',
      commission: '50.00',
      sources: [
        {
          source_id: dealer.sources['Finn ad']!.sourceId,
          name: 'Finn ad',
          calls: '4',
          answered: '2',
          leads: '1',
          commission: '25.00',
        },
        {
          source_id: dealer.sources.Website!.sourceId,
          name: 'Website',
          calls: '1',
          answered: '1',
          leads: '1',
          commission: '25.00',
        },
      ],
      days: undefined,
    });
    const march = days(answer.body);
    expect(march).toHaveLength(31);
    expect(march.map((day) => day.date)).toEqual(
      Array.from({ length: 31 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`),
    );
    const busy = march.filter((day) => day.calls !== '0');
    expect(busy).toEqual([
      { date: '2026-03-01', calls: '1', answered: '1' },
      { date: '2026-03-15', calls: '1', answered: '1' },
      { date: '2026-03-29', calls: '1', answered: '0' },
      { date: '2026-03-30', calls: '1', answered: '0' },
      { date: '2026-03-31', calls: '1', answered: '1' },
    ]);
  });

  it('puts the calls around the autumn change on their local days', async () => {
    const answer = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-10`);
    expect(answer.status).toBe(200);
    const record = (answer.body.reports as Body[])[0]!;
    expect(record).toMatchObject({ calls: '3', answered: '2', missed: '1', leads: '2', commission: '50.00' });
    expect(days(answer.body).filter((day) => day.calls !== '0')).toEqual([
      { date: '2026-10-01', calls: '1', answered: '1' },
      { date: '2026-10-25', calls: '1', answered: '0' },
      { date: '2026-10-31', calls: '1', answered: '1' },
    ]);
    const november = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-11`);
    expect((november.body.reports as Body[])[0]).toMatchObject({ calls: '1', answered: '1' });
  });

  it('answers XML by suffix and by Accept, and by the sub-resource query form', async () => {
    const bySuffix = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-03`, 'xml');
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xmlReport = (bySuffix.body.reports as Body).report as Body;
    expect(xmlReport).toMatchObject({ customer_id: dealer.customerId, month: '2026-03', calls: '5' });
    const sources = xmlList<Body>((xmlReport.sources as Body).source);
    expect(sources.map((source) => source.name)).toEqual(['Finn ad', 'Website']);
    expect(xmlList<Body>((xmlReport.days as Body).day)).toHaveLength(31);
    expect(bySuffix.text).toContain('<days><day><date>2026-03-01</date><calls>1</calls>');

    const byAccept = await fixture.env.api.readAccepting(
      `/v1/customers/${dealer.customerId}/reports/monthly?month=2026-03`,
      'xml',
    );
    expect(byAccept.text).toBe(bySuffix.text);

    const queryForm = await report(
      `/v1/customers/reports/monthly?customer_id=${dealer.customerId}&month=2026-03`,
    );
    const pathForm = await report(`/v1/customers/${dealer.customerId}/reports/monthly?month=2026-03`);
    expect(queryForm.status).toBe(200);
    expect(queryForm.body).toEqual(pathForm.body);
  });

  it('keeps each customer to its own calls, and a month without calls is all zeros', async () => {
    const answer = await report(`/customers/${other.customerId}/reports/monthly?month=2026-03`);
    expect((answer.body.reports as Body[])[0]).toMatchObject({ calls: '1', leads: '1', commission: '25.00' });
    const empty = await report(`/customers/${other.customerId}/reports/monthly?month=2025-02`);
    const record = (empty.body.reports as Body[])[0]!;
    expect(record).toMatchObject({ calls: '0', answered: '0', missed: '0', leads: '0', commission: '0.00' });
    expect(record.sources).toEqual([
      {
        source_id: other.sources['Other ad']!.sourceId,
        name: 'Other ad',
        calls: '0',
        answered: '0',
        leads: '0',
        commission: '0.00',
      },
    ]);
    expect(days(empty.body)).toHaveLength(28);
  });

  it('follows records removed or changed after ingestion (the figures are kept by triggers)', async () => {
    const { dataSource } = fixture.env.stores;
    const before = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-03`);
    // A caller's number erased: no figure changes.
    await dataSource.query(`UPDATE cdrs SET anum = 'erased' WHERE customer_id = $1`, [dealer.customerId]);
    const erased = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-03`);
    expect(erased.body).toEqual(before.body);
    // The 15 March lead deleted (retention): gone from the totals, its source and its day.
    await dataSource.query(`DELETE FROM cdrs WHERE customer_id = $1 AND start = '2026-03-15T12:00:00Z'`, [
      dealer.customerId,
    ]);
    const after = await report(`/customers/${dealer.customerId}/reports/monthly?month=2026-03`);
    const record = (after.body.reports as Body[])[0]!;
    expect(record).toMatchObject({ calls: '4', answered: '2', leads: '1', commission: '25.00' });
    expect((record.sources as Body[])[1]).toMatchObject({ name: 'Website', calls: '0', commission: '0.00' });
    expect(days(after.body).find((day) => day.date === '2026-03-15')).toEqual({
      date: '2026-03-15',
      calls: '0',
      answered: '0',
    });
  });

  it.each([
    ['', 'month: is required (YYYY-MM)'],
    ['?month=2026-3', 'month: must be a month YYYY-MM (year 2000 or later)'],
    ['?month=2026-13', 'month: must be a month YYYY-MM (year 2000 or later)'],
    ['?month=2099-01', 'month: must not be later than the current month'],
    ['?month=2026-03&months=2', 'months: is not a known query parameter'],
  ])('refuses %s with 400 naming the month', async (query, message) => {
    const answer = await report(`/customers/${dealer.customerId}/reports/monthly${query}`);
    expect(answer.status).toBe(400);
    expect((answer.body.error as Body).message).toContain(message);
  });

  it('answers 404 for an unknown customer, and 405 for a write', async () => {
    for (const id of ['999999', 'abc']) {
      const answer = await report(`/customers/${id}/reports/monthly?month=2026-03`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { status: 404, message: `customer ${id} not found` } });
    }
    const write = await fixture.env.api.write('POST', `/customers/${dealer.customerId}/reports/monthly`, {});
    expect(write.status).toBe(405);
  });
});
