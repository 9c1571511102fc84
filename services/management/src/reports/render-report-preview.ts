import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monthSpan } from '@trackline/domain';
import { assembleReport } from './monthly-report-assembly';
import type { ReportFigureRow } from './monthly-report';
import { renderDailyChart } from './report-chart';
import { renderReportEmail } from './report-email';

/**
 * Renders the monthly report e-mail of a made-up dealer in headless Chromium and writes the
 * screenshots docs/reports.md shows (desktop and phone width). Not part of the tests: CI has no
 * Chromium. Run after `pnpm build`:
 *
 *   node services/management/dist/reports/render-report-preview.js [output folder, default docs]
 *
 * CHROMIUM names the browser binary (default /usr/bin/chromium; Debian's package `chromium`).
 */
async function main(): Promise<void> {
  const outputFolder = resolve(process.argv[2] ?? 'docs');
  const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const month = '2026-10';
  const timeZone = 'Europe/Oslo';
  const span = monthSpan(month, timeZone);
  const sources = [
    { sourceId: '101', name: 'Finn.no – Toyota RAV4 2021', active: true, weight: 9 },
    { sourceId: '102', name: 'Website – contact page', active: true, weight: 5 },
    { sourceId: '103', name: 'Google Ads – service booking', active: true, weight: 3 },
    { sourceId: '104', name: 'Facebook – autumn campaign', active: true, weight: 1 },
  ];
  const rows: ReportFigureRow[] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (const date of span.days) {
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    const dayFactor = weekday === 0 ? 0.25 : weekday === 6 ? 0.7 : 1;
    for (const source of sources) {
      const calls = Math.round(source.weight * dayFactor * (0.6 + random() * 0.8));
      if (calls === 0) continue;
      const answered = Math.round(calls * (0.72 + random() * 0.2));
      const voicemails = Math.min(calls - answered, Math.round(random() * 0.6));
      const leads = Math.floor(answered * 0.45 + random());
      rows.push({
        date,
        sourceId: source.sourceId,
        calls,
        answered,
        voicemails,
        leads,
        commission: `${leads * 25}.00`,
      });
    }
  }
  const report = assembleReport({ customerId: '1042', month, timeZone, days: span.days, rows, sources });
  const email = renderReportEmail(report, {
    customerName: 'Kari Bil AS',
    previous: { month: '2026-09', calls: 431, leads: 158 },
    chartCid: 'daily-chart@trackline',
    csv: { filename: `calls-${month}.csv`, rows: report.calls, truncated: false },
  });
  // The e-mail shows the chart through its Content-ID; a browser needs the image inline.
  const chart = renderDailyChart(report.days).toString('base64');
  const html = email.html.replace('cid:daily-chart@trackline', `data:image/png;base64,${chart}`);

  const work = await mkdtemp(join(tmpdir(), 'tl-report-preview-'));
  try {
    const page = join(work, 'report.html');
    await writeFile(page, html);
    for (const [name, size] of [
      ['report-email.png', '800,1170'],
      ['report-email-phone.png', '390,1320'],
    ] as const) {
      const output = join(outputFolder, name);
      await run(chromium, [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        `--user-data-dir=${join(work, `profile-${name}`)}`,
        `--window-size=${size}`,
        `--screenshot=${output}`,
        `file://${page}`,
      ]);
      process.stdout.write(`${output}\n`);
    }
    process.stdout.write(`subject: ${email.subject}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else reject(new Error(`${command} exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`report preview failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
