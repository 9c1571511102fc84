import type { MonthlyReport } from './monthly-report';
import { CHART_HEIGHT, CHART_WIDTH } from './report-chart';

/** The month before, for the change shown on the calls and leads. */
export interface PreviousMonth {
  month: string;
  calls: number;
  leads: number;
}

/** What the template shows besides the figures. */
export interface ReportEmailContext {
  customerName: string;
  previous?: PreviousMonth;
  /** `cid:` of the inline chart image. */
  chartCid: string;
  csv: { filename: string; rows: number; truncated: boolean };
}

export interface RenderedReportEmail {
  subject: string;
  html: string;
  text: string;
}

const INK = '#111827';
const MUTED = '#6b7280';
const LINE = '#e5e7eb';
const ACCENT = '#4338ca';
const PAGE = '#f3f4f6';
const FONT = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;

const count = new Intl.NumberFormat('en-GB');

/**
 * The monthly report e-mail (docs/reports.md): a subject that already says the month's result, a
 * responsive HTML part (tables and inline styles, what mail clients render alike; one column of
 * 600 px that narrows on a phone, the figure tiles two abreast there) and a plain-text part with
 * the same figures.
 */
export function renderReportEmail(report: MonthlyReport, context: ReportEmailContext): RenderedReportEmail {
  const month = monthLabel(report.month);
  const subject =
    `${month} call report for ${context.customerName}: ${count.format(report.calls)} ` +
    `${plural(report.calls, 'call')}, ${count.format(report.leads)} ${plural(report.leads, 'lead')}`;
  return {
    subject,
    html: renderHtml(report, context, month),
    text: renderText(report, context, month),
  };
}

interface Tile {
  label: string;
  value: string;
  note: string;
  /** Colours a change on the month before. */
  tone?: 'up' | 'down';
}

const TONES = { up: '#047857', down: '#b91c1c' };

function tiles(report: MonthlyReport, previous: PreviousMonth | undefined): Tile[] {
  const change = (now: number, before: number | undefined, fallback: string) =>
    before === undefined ? { note: fallback } : changeNote(now, before, previous!.month);
  return [
    {
      label: 'Calls',
      value: count.format(report.calls),
      ...change(report.calls, previous?.calls, 'in the month'),
    },
    { label: 'Answered', value: count.format(report.answered), note: share(report.answered, report.calls) },
    { label: 'Missed', value: count.format(report.missed), note: share(report.missed, report.calls) },
    { label: 'Voicemails', value: count.format(report.voicemails), note: 'left a message' },
    {
      label: 'Leads',
      value: count.format(report.leads),
      ...change(report.leads, previous?.leads, 'earned a commission'),
    },
    { label: 'Commission', value: money(report.commission), note: 'for the leads' },
  ];
}

/** "▲ 12 % on September", "▼ 3 % on September", "as many as in September". */
function changeNote(now: number, before: number, month: string): Pick<Tile, 'note' | 'tone'> {
  const name = monthLabel(month).split(' ')[0]!;
  if (before === 0) return { note: now === 0 ? `none in ${name} either` : `none in ${name}` };
  const percent = Math.round(((now - before) / before) * 100);
  if (percent === 0) return { note: `as many as in ${name}` };
  return percent > 0
    ? { note: `▲ ${percent} % on ${name}`, tone: 'up' }
    : { note: `▼ ${-percent} % on ${name}`, tone: 'down' };
}

function renderHtml(report: MonthlyReport, context: ReportEmailContext, month: string): string {
  const busiest = busiestDay(report);
  // Inline blocks rather than table cells: three abreast on a wide screen, two on a phone.
  const tileCells = tiles(report, context.previous)
    .map(
      (
        tile,
      ) => `<div class="tile" style="display:inline-block;width:33.33%;vertical-align:top;box-sizing:border-box;padding:6px;font-size:14px;">
          <div style="border:1px solid ${LINE};border-radius:10px;background:#ffffff;padding:14px 16px;">
            <div style="font-size:12px;letter-spacing:.04em;text-transform:uppercase;color:${MUTED};">${escape(tile.label)}</div>
            <div style="font-size:26px;line-height:32px;font-weight:700;color:${INK};padding-top:4px;white-space:nowrap;">${escape(tile.value)}</div>
            <div style="font-size:12px;line-height:16px;color:${tile.tone === undefined ? MUTED : TONES[tile.tone]};">${escape(tile.note)}</div>
          </div>
        </div>`,
    )
    .join('');

  const sourceRows =
    report.sources.length === 0
      ? `<tr><td colspan="5" style="padding:12px 0;color:${MUTED};">No sources.</td></tr>`
      : report.sources
          .map(
            (source) => `<tr>
            <td style="padding:10px 8px 10px 0;border-top:1px solid ${LINE};color:${INK};">${escape(source.name)}</td>
            <td align="right" style="padding:10px 8px;border-top:1px solid ${LINE};">${count.format(source.calls)}</td>
            <td align="right" style="padding:10px 8px;border-top:1px solid ${LINE};">${count.format(source.answered)}</td>
            <td align="right" class="narrow-hide" style="padding:10px 8px;border-top:1px solid ${LINE};">${count.format(source.leads)}</td>
            <td align="right" style="padding:10px 0 10px 8px;border-top:1px solid ${LINE};white-space:nowrap;">${escape(money(source.commission))}</td>
          </tr>`,
          )
          .join('');

  const csvNote = context.csv.truncated
    ? `The first ${count.format(context.csv.rows)} of the month's ${count.format(report.calls)} calls are attached as <strong>${escape(context.csv.filename)}</strong>; the full list is in the call statistics.`
    : `All ${count.format(context.csv.rows)} ${plural(context.csv.rows, 'call')} of the month are attached as <strong>${escape(context.csv.filename)}</strong>.`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escape(month)} call report</title>
<style>
  body { margin: 0; padding: 0; }
  @media (max-width: 520px) {
    .tile { width: 50% !important; }
    .pad { padding-left: 16px !important; padding-right: 16px !important; }
    .narrow-hide { display: none !important; }
    .headline { font-size: 22px !important; line-height: 28px !important; }
  }
</style>
</head>
<body style="margin:0;padding:0;background:${PAGE};">
<div style="display:none;max-height:0;overflow:hidden;">${escape(
    `${count.format(report.calls)} calls, ${count.format(report.answered)} answered, ${count.format(report.leads)} leads in ${month}.`,
  )}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${PAGE};font-family:${FONT};color:${INK};">
  <tr><td align="center" style="padding:24px 8px;">
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;">
      <tr><td class="pad" style="background:${ACCENT};border-radius:14px 14px 0 0;padding:28px 32px;color:#ffffff;">
        <div style="font-size:13px;letter-spacing:.08em;text-transform:uppercase;opacity:.85;">Monthly call report</div>
        <div class="headline" style="font-size:28px;line-height:34px;font-weight:700;padding-top:6px;">${escape(month)}</div>
        <div style="font-size:15px;padding-top:4px;opacity:.9;">${escape(context.customerName)}</div>
      </td></tr>
      <tr><td class="pad" style="background:#ffffff;padding:20px 26px 8px;">
        <div style="font-size:0;">${tileCells}</div>
      </td></tr>
      <tr><td class="pad" style="background:#ffffff;padding:18px 32px 8px;">
        <div style="font-size:17px;font-weight:700;">Calls per day</div>
        <div style="font-size:13px;color:${MUTED};padding:2px 0 10px;">${escape(
          busiest === null
            ? 'No calls this month.'
            : `Busiest day: ${dayLabel(busiest.date)}, ${count.format(busiest.calls)} ${plural(busiest.calls, 'call')}.`,
        )}</div>
        <img src="cid:${escape(context.chartCid)}" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" alt="Bar chart of calls and answered calls per day in ${escape(month)}" style="display:block;width:100%;max-width:${CHART_WIDTH}px;height:auto;border:0;">
      </td></tr>
      <tr><td class="pad" style="background:#ffffff;padding:22px 32px 8px;">
        <div style="font-size:17px;font-weight:700;padding-bottom:6px;">By source</div>
        <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px;color:${INK};">
          <tr style="color:${MUTED};font-size:12px;text-transform:uppercase;letter-spacing:.04em;">
            <td style="padding:6px 8px 6px 0;">Source</td>
            <td align="right" style="padding:6px 8px;">Calls</td>
            <td align="right" style="padding:6px 8px;">Answered</td>
            <td align="right" class="narrow-hide" style="padding:6px 8px;">Leads</td>
            <td align="right" style="padding:6px 0 6px 8px;">Commission</td>
          </tr>
          ${sourceRows}
          <tr style="font-weight:700;">
            <td style="padding:10px 8px 10px 0;border-top:2px solid ${INK};">Total</td>
            <td align="right" style="padding:10px 8px;border-top:2px solid ${INK};">${count.format(report.calls)}</td>
            <td align="right" style="padding:10px 8px;border-top:2px solid ${INK};">${count.format(report.answered)}</td>
            <td align="right" class="narrow-hide" style="padding:10px 8px;border-top:2px solid ${INK};">${count.format(report.leads)}</td>
            <td align="right" style="padding:10px 0 10px 8px;border-top:2px solid ${INK};white-space:nowrap;">${escape(money(report.commission))}</td>
          </tr>
        </table>
      </td></tr>
      <tr><td class="pad" style="background:#ffffff;border-radius:0 0 14px 14px;padding:18px 32px 28px;">
        <div style="background:${PAGE};border-radius:10px;padding:14px 16px;font-size:13px;line-height:20px;color:${INK};">
          ${csvNote} Times are in ${escape(report.timeZone)}.
        </div>
      </td></tr>
      <tr><td style="padding:18px 32px;font-size:12px;line-height:18px;color:${MUTED};text-align:center;">
        You receive this report because monthly reports are switched on for ${escape(context.customerName)}.
        To stop them, ask whoever set up your call tracking to switch the monthly report off.
      </td></tr>
    </table>
  </td></tr>
</table>
</body>
</html>
`;
}

function renderText(report: MonthlyReport, context: ReportEmailContext, month: string): string {
  const figures = tiles(report, context.previous);
  const width = Math.max(...figures.map((tile) => tile.label.length));
  const valueWidth = Math.max(...figures.map((tile) => tile.value.length));
  const lines = [
    `Monthly call report: ${month}`,
    context.customerName,
    '',
    ...figures.map(
      (tile) =>
        `${tile.label.padEnd(width)}  ${tile.value.padStart(valueWidth)}` +
        (showNoteInText(tile.label, report, context.previous) ? `  (${tile.note})` : ''),
    ),
    '',
    'By source',
    ...(report.sources.length === 0
      ? ['  No sources.']
      : report.sources.map(
          (source) =>
            `  ${source.name}: ${count.format(source.calls)} ${plural(source.calls, 'call')}, ` +
            `${count.format(source.answered)} answered, ${count.format(source.leads)} ${plural(source.leads, 'lead')}, ` +
            `commission ${money(source.commission)}`,
        )),
    '',
  ];
  const busiest = busiestDay(report);
  lines.push(
    busiest === null
      ? 'No calls this month.'
      : `Busiest day: ${dayLabel(busiest.date)}, ${count.format(busiest.calls)} ${plural(busiest.calls, 'call')}.`,
  );
  lines.push(
    context.csv.truncated
      ? `The first ${count.format(context.csv.rows)} of the month's calls are attached as ${context.csv.filename}; the full list is in the call statistics.`
      : `All ${count.format(context.csv.rows)} ${plural(context.csv.rows, 'call')} of the month are attached as ${context.csv.filename}.`,
    `Times are in ${report.timeZone}.`,
    '',
    `You receive this report because monthly reports are switched on for ${context.customerName}.`,
    'To stop them, ask whoever set up your call tracking to switch the monthly report off.',
  );
  return `${lines.join('\n')}\n`;
}

/** The plain text keeps the notes that carry a figure: shares of the calls, the change on last month. */
function showNoteInText(label: string, report: MonthlyReport, previous: PreviousMonth | undefined): boolean {
  if (label === 'Answered' || label === 'Missed') return report.calls > 0;
  return (label === 'Calls' || label === 'Leads') && previous !== undefined;
}

function busiestDay(report: MonthlyReport): { date: string; calls: number } | null {
  let best: { date: string; calls: number } | null = null;
  for (const day of report.days) if (day.calls > 0 && (best === null || day.calls > best.calls)) best = day;
  return best;
}

/** "2026-03" → "March 2026". */
export function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

/** "2026-03-14" → "Saturday 14 March". */
function dayLabel(date: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** "1350.00" → "1,350.00", grouping the whole part of the decimal string (no float on the way). */
export function money(amount: string): string {
  const [whole, cents] = amount.split('.');
  const negative = whole!.startsWith('-');
  const digits = negative ? whole!.slice(1) : whole!;
  return `${negative ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents ?? '00'}`;
}

function share(part: number, whole: number): string {
  return whole === 0 ? 'of the calls' : `${Math.round((part / whole) * 100)} % of the calls`;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
