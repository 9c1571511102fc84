import type { ReportOutcomeLine } from './report-outcomes';

/** One customer's month (docs/reports.md): counts as numbers, money as a two-decimal string. */
export interface MonthlyReport {
  customerId: string;
  /** `YYYY-MM` on the partner's wall clock. */
  month: string;
  /** The partner's IANA time zone the month and its days are counted in. */
  timeZone: string;
  calls: number;
  answered: number;
  /** Unanswered calls that left no voicemail recording. */
  missed: number;
  /** Unanswered calls that left a voicemail recording. */
  voicemails: number;
  /** Calls that earned a commission. */
  leads: number;
  commission: string;
  sources: ReportSourceLine[];
  /** Every local day of the month, in order, including days without calls. */
  days: ReportDay[];
  /** The outcomes partners posted for the month's calls, per status (docs/conversions.md). */
  outcomes: ReportOutcomeLine[];
}

export interface ReportSourceLine {
  sourceId: string;
  name: string;
  calls: number;
  answered: number;
  leads: number;
  commission: string;
}

export interface ReportDay {
  /** `YYYY-MM-DD`, local. */
  date: string;
  calls: number;
  answered: number;
}

/** The figures of one source on one local day, as the store sums them. */
export interface ReportFigureRow {
  date: string;
  /** "0" for calls without a source. */
  sourceId: string;
  calls: number;
  answered: number;
  voicemails: number;
  leads: number;
  commission: string;
}
