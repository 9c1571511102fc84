import { createLogger } from '@trackline/platform';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { DataSource } from 'typeorm';
import { runCli } from '../cli/run-cli';
import { createManagementDataSource } from '../composition/management-data-source';
import { E2E_TIMEOUT_MS } from '../test-support/e2e-environment';
import { EmailChannel } from '../notifications/email.channel';
import { NotificationWorker } from '../notifications/notification-worker';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { SqlRecordingReader } from '../cdrs/recording.reader';
import { startSmtpReceiver } from '../test-support/notification-receivers';
import { createMonthlyReportMailing } from '../composition/monthly-report-composition';
import { CSV_COLUMNS } from './report-csv';
import { startReportFixture, type FixtureCustomer, type ReportFixture } from '../test-support/report-fixture';

jest.setTimeout(E2E_TIMEOUT_MS);

type Body = Record<string, unknown>;
const FROM = 'Trackline <reports@notify.example.com>';
const REPORTS = { catchUpHours: 24, csvMaxRows: 100_000, scheduleEnabled: true };

// The monthly report e-mail end to end: calls through POST /telephony/cdrs, `pnpm trackline
// reports:send` and the schedule on two "replicas", a real SMTP server receiving what goes out.
describe('monthly report e-mail (real SMTP receiver)', () => {
  let fixture: ReportFixture;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let kari: FixtureCustomer;
  let dealer2: FixtureCustomer;
  const extraSources: DataSource[] = [];

  beforeAll(async () => {
    fixture = await startReportFixture();
    smtp = await startSmtpReceiver();
    kari = await fixture.addCustomer(
      { name: 'Kari Bil AS', custnr: 'K-1', email: 'kari@example.no', receive_monthly_report: '1' },
      ['Finn ad', 'Website'],
    );
    dealer2 = await fixture.addCustomer(
      { name: 'Per Motor', custnr: 'P-1', email: 'per@example.no', receive_monthly_report: '1' },
      ['Per ad'],
    );
    // Asked for the report but has no address; has an address but did not ask.
    const noEmail = await fixture.addCustomer(
      { name: 'No Mail AS', custnr: 'N-1', receive_monthly_report: '1' },
      ['No mail ad'],
    );
    const noFlag = await fixture.addCustomer(
      { name: 'No Flag AS', custnr: 'F-1', email: 'noflag@example.no', receive_monthly_report: '0' },
      ['No flag ad'],
    );
    await fixture.ingest(kari, [
      // 00:30 on 1 October (CEST): a lead.
      { source: 'Finn ad', start: '2026-09-30T22:30:00Z', duration: 75, answered: 1, anum: '+4791234567' },
      // 23:30 on 25 October, after the clocks went back (CET): missed.
      { source: 'Finn ad', start: '2026-10-25T22:30:00Z', duration: 0, answered: 0, anum: '+4722998877' },
      // 23:30 on 31 October (CET): still October, a lead.
      { source: 'Website', start: '2026-10-31T22:30:00Z', duration: 40, answered: 1, anum: '+4799887766' },
      // 00:00 on 1 November (CET): November.
      { source: 'Website', start: '2026-10-31T23:00:00Z', duration: 40, answered: 1 },
      // 23:59 on 30 September (CEST): September.
      { source: 'Website', start: '2026-09-30T21:59:00Z', duration: 40, answered: 1 },
    ]);
    await fixture.ingest(noEmail, [
      { source: 'No mail ad', start: '2026-10-05T10:00:00Z', duration: 30, answered: 1 },
    ]);
    await fixture.ingest(noFlag, [
      { source: 'No flag ad', start: '2026-10-05T10:00:00Z', duration: 30, answered: 1 },
    ]);
  });

  afterAll(async () => {
    for (const dataSource of extraSources) await dataSource.destroy();
    await smtp?.close();
    await fixture?.env.close();
  });

  async function operator(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const { stores } = fixture.env;
    const code = await runCli(
      argv,
      {
        DATABASE_URL: stores.database.url,
        REDIS_URL: stores.redis.url,
        REDIS_KEY_PREFIX: stores.redis.keyPrefix,
        SMTP_URL: smtp.url,
        SMTP_FROM: FROM,
      },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  async function parsed(index: number): Promise<ParsedMail> {
    return simpleParser(smtp.messages[index]!.raw, { keepCidLinks: true });
  }

  async function outboxRows(): Promise<Array<{ unique_key: string; status: string; recipient: string }>> {
    return fixture.env.stores.dataSource.query(
      `SELECT unique_key, status, recipient FROM notification_outbox WHERE kind = 'monthly_report' ORDER BY unique_key`,
    );
  }

  it('reports:send sends each customer who asks for it one e-mail with the figures, chart and CSV', async () => {
    const first = await operator('reports:send', '--month', '2026-10');
    expect(first).toEqual({ code: 0, out: ['Sent 2 monthly reports for 2026-10'], err: [] });
    expect(smtp.messages.map((message) => message.to)).toEqual(
      expect.arrayContaining([['kari@example.no'], ['per@example.no']]),
    );
    expect(smtp.messages).toHaveLength(2);

    const index = smtp.messages.findIndex((message) => message.to[0] === 'kari@example.no');
    const mail = await parsed(index);
    expect(mail.from?.value).toEqual([{ address: 'reports@notify.example.com', name: 'Trackline' }]);
    expect(mail.subject).toBe('October 2026 call report for Kari Bil AS: 3 calls, 2 leads');

    // The figures the partner API answers for the month are the ones in the e-mail.
    const api = await fixture.env.api.read(`/customers/${kari.customerId}/reports/monthly?month=2026-10`);
    expect((api.body.reports as Body[])[0]).toMatchObject({
      calls: '3',
      answered: '2',
      missed: '1',
      voicemails: '0',
      leads: '2',
      commission: '50.00',
    });
    expect(mail.text).toContain('Calls           3  (▲ 200 % on September)');
    expect(mail.text).toContain('Answered        2  (67 % of the calls)');
    expect(mail.text).toContain('Missed          1  (33 % of the calls)');
    expect(mail.text).toContain('Leads           2  (▲ 100 % on September)');
    expect(mail.text).toContain('Commission  50.00');
    expect(mail.text).toContain('Finn ad: 2 calls, 1 answered, 1 lead, commission 25.00');
    expect(mail.text).toContain('Website: 1 call, 1 answered, 1 lead, commission 25.00');
    expect(mail.text).toContain('All 3 calls of the month are attached as calls-2026-10.csv.');
    const html = mail.html as string;
    expect(html).toContain(
      '<div class="headline" style="font-size:28px;line-height:34px;font-weight:700;padding-top:6px;">October 2026</div>',
    );
    expect(html).toContain('src="cid:daily-chart@trackline"');
    expect(html).toMatch(/Finn ad<\/td>\s*<td align="right"[^>]*>2<\/td>\s*<td align="right"[^>]*>1<\/td>/);
    expect(html).toContain('50.00');

    const chart = mail.attachments.find((attachment) => attachment.contentType === 'image/png');
    expect(chart?.cid).toBe('daily-chart@trackline');
    expect(chart?.filename).toBe('calls-per-day-2026-10.png');
    const png = chart!.content;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 520]);

    const csv = mail.attachments.find((attachment) => attachment.filename === 'calls-2026-10.csv');
    expect(csv?.contentType).toBe('text/csv');
    const lines = csv!.content
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((row) => [row[1], row[2], row[4], row[7], row[8], row[10], row[11], row[12]])).toEqual([
      ['2026-10-01 00:30:00', '2026-09-30 22:30:00', '+4791234xxx', 'Finn ad', '1', '25.00', 'static', ''],
      ['2026-10-25 23:30:00', '2026-10-25 22:30:00', '+4722998xxx', 'Finn ad', '0', '', 'static', ''],
      ['2026-10-31 23:30:00', '2026-10-31 22:30:00', '+4799887xxx', 'Website', '1', '25.00', 'static', ''],
    ]);
    // Masked exactly as GET /statistics/cdrs shows the same calls to this partner.
    const statistics = await fixture.env.api.read(
      `/statistics/cdrs?customer_id=${kari.customerId}&from_date=2026-10-01&to_date=2026-11-01`,
    );
    expect((statistics.body.cdrs as Body[]).map((cdr) => cdr.anum)).toEqual(rows.map((row) => row[4]));

    const per = await parsed(1 - index);
    expect(per.subject).toBe('October 2026 call report for Per Motor: 0 calls, 0 leads');
    expect(per.text).toContain('No calls this month.');
    expect(per.text).toContain('Calls          0  (none in September either)');

    expect(await outboxRows()).toEqual([
      {
        unique_key: `monthly_report:${kari.customerId}:2026-10`,
        status: 'sent',
        recipient: 'kari@example.no',
      },
      {
        unique_key: `monthly_report:${dealer2.customerId}:2026-10`,
        status: 'sent',
        recipient: 'per@example.no',
      },
    ]);
  });

  it('a second reports:send sends nothing', async () => {
    const again = await operator('reports:send', '--month', '2026-10');
    expect(again).toEqual({
      code: 0,
      out: ['No monthly reports to send for 2026-10 (2 already sent before)'],
      err: [],
    });
    const onePartner = await operator('reports:send', '--month', '2026-10', '--partner', 'acme');
    expect(onePartner.out).toEqual(['No monthly reports to send for 2026-10 (2 already sent before)']);
    expect(smtp.messages).toHaveLength(2);
  });

  it('refuses a month that has not ended, an unreadable month and an unknown partner', async () => {
    const now = new Date();
    const current = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const unfinished = await operator('reports:send', '--month', current);
    expect(unfinished.code).toBe(1);
    expect(unfinished.err).toEqual([
      expect.stringMatching(
        new RegExp(`^error: --month: ${current} has not ended yet for partner acme \\(Europe/Oslo\\)$`),
      ),
    ]);
    expect((await operator('reports:send', '--month', '2026-1')).err).toEqual([
      'error: --month: must be a month YYYY-MM (year 2000 or later)',
    ]);
    expect((await operator('reports:send', '--month', '2026-09', '--partner', 'nobody')).err).toEqual([
      'error: partner nobody not found',
    ]);
    expect(smtp.messages).toHaveLength(2);
  });

  it('the schedule on two replicas queues each report once at 06:00 on the 1st (Oslo) and two workers send it once', async () => {
    const replica = async () => {
      const dataSource = createManagementDataSource(fixture.env.stores.database.url);
      await dataSource.initialize();
      extraSources.push(dataSource);
      return { dataSource, mailing: createMonthlyReportMailing(dataSource, { reports: REPORTS }) };
    };
    const [a, b] = await Promise.all([replica(), replica()]);
    // 05:59 in Oslo on 1 December: not yet.
    expect(await a.mailing.queue.enqueueDue(new Date('2026-12-01T04:59:00Z'))).toBe(0);
    // 06:00: both replicas tick at once; the unique key lets one row per customer through.
    const due = new Date('2026-12-01T05:00:00Z');
    const added = await Promise.all([a.mailing.queue.enqueueDue(due), b.mailing.queue.enqueueDue(due)]);
    expect(added[0] + added[1]).toBe(2);
    // A restart later that day ticks again: nothing new.
    expect(await b.mailing.queue.enqueueDue(new Date('2026-12-01T17:00:00Z'))).toBe(0);

    const worker = (replicaOf: typeof a, id: string) =>
      new NotificationWorker(
        {
          store: new TypeormOutboxStore(replicaOf.dataSource.manager),
          channels: {
            email: new EmailChannel({ smtpUrl: smtp.url, from: FROM, timeoutMs: 10_000 }),
            sms: null,
          },
          recordings: new SqlRecordingReader(replicaOf.dataSource.manager),
          composers: replicaOf.mailing.composers,
          logger: createLogger({ service: 'test', level: 'silent' }),
          clock: () => new Date('2026-12-01T05:00:05Z'),
        },
        { workerId: id, maxAttempts: 3, baseDelayMs: 100, leaseMs: 20_000, pollMs: 50, batchSize: 1 },
      );
    const [one, two] = [worker(a, 'replica-a'), worker(b, 'replica-b')];
    let claimed = 0;
    for (let round = 0; round < 4; round++) {
      const counts = await Promise.all([one.runOnce(), two.runOnce()]);
      claimed += counts[0] + counts[1];
    }
    expect(claimed).toBe(2);
    const november = smtp.messages.slice(2);
    expect(november.map((message) => message.to[0]).sort()).toEqual(['kari@example.no', 'per@example.no']);
    const kariNovember = await simpleParser(november.find((m) => m.to[0] === 'kari@example.no')!.raw);
    expect(kariNovember.subject).toBe('November 2026 call report for Kari Bil AS: 1 call, 1 lead');

    // A day after 06:00 on 1 January the schedule no longer sends December by itself.
    expect(await a.mailing.queue.enqueueDue(new Date('2027-01-02T05:00:00Z'))).toBe(0);
    expect(await a.mailing.queue.enqueueDue(new Date('2027-01-02T04:59:00Z'))).toBe(2);
    expect((await outboxRows()).map((row) => row.unique_key)).toEqual(
      [
        `monthly_report:${kari.customerId}:2026-10`,
        `monthly_report:${kari.customerId}:2026-11`,
        `monthly_report:${kari.customerId}:2026-12`,
        `monthly_report:${dealer2.customerId}:2026-10`,
        `monthly_report:${dealer2.customerId}:2026-11`,
        `monthly_report:${dealer2.customerId}:2026-12`,
      ].sort(),
    );
    // Nothing ever went to the customer without an address or the one that did not ask.
    expect(smtp.messages.flatMap((message) => message.to)).not.toContain('noflag@example.no');
    expect(smtp.messages).toHaveLength(4);
  });
});
