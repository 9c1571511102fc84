import { formatUtcTimestamp, renderFlag, renderSpamReasons } from '@trackline/domain';
import { stringify } from 'csv-stringify/sync';
import type { Cdr } from '../cdrs/cdr';
import { toCdrRecord } from '../cdrs/cdr-record';

export const CSV_COLUMNS = [
  'cdr_id',
  'start_local',
  'start_utc',
  'duration',
  'anum',
  'bnum',
  'source_id',
  'source',
  'answered',
  'voicemail',
  'commission',
  'attribution',
  'bound_seconds',
  'stir_verstat',
  'spam_score',
  'spam_reasons',
] as const;

/**
 * The month's calls as the e-mail attaches them: one line per call in start order, the caller's
 * number masked exactly as GET /statistics/cdrs shows it to this partner (the same record
 * function), the start both on the partner's wall clock and in UTC. RFC 4180 quoting, CRLF line
 * ends and a byte-order mark, so spreadsheet programs open the UTF-8 text as such.
 */
export function reportCsv(
  cdrs: readonly Cdr[],
  options: { timeZone: string; showFullAnum: boolean; sourceNames: ReadonlyMap<string, string> },
): string {
  const local = localTimeFormat(options.timeZone);
  const rows = cdrs.map((cdr) => {
    const record = toCdrRecord(cdr, { extended: true, showFullAnum: options.showFullAnum });
    return [
      cdr.id,
      local(cdr.start),
      formatUtcTimestamp(cdr.start),
      String(cdr.durationSeconds),
      record.anum as string,
      cdr.bnum,
      cdr.sourceId ?? '',
      cdr.sourceId === null ? '' : (options.sourceNames.get(cdr.sourceId) ?? ''),
      renderFlag(cdr.answered),
      renderFlag(cdr.voicemail),
      cdr.commission ?? '',
      cdr.attribution ?? '',
      cdr.boundSeconds === null ? '' : String(cdr.boundSeconds),
      cdr.stirVerstat ?? '',
      cdr.spamScore === null ? '' : String(cdr.spamScore),
      renderSpamReasons(cdr.spamReasons),
    ];
  });
  return stringify([[...CSV_COLUMNS], ...rows], { bom: true, record_delimiter: 'windows' });
}

/** `YYYY-MM-DD HH:MM:SS` on the zone's wall clock. */
function localTimeFormat(timeZone: string): (instant: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (instant) => {
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
}
