import type { MarketingIds } from '@trackline/contracts';
import type { AttributionKind, CountryCode, OutcomeStatus, SpamReason } from '@trackline/domain';
import type { NumberKind } from '../numbers/tracking-number.entity';

/** A stored call record, as the service and the renderer see it. */
export interface Cdr {
  id: string;
  callId: string;
  partnerId: string;
  customerId: string | null;
  custnr: string | null;
  sourceId: string | null;
  campaignId: string | null;
  pricingModelId: string | null;
  start: Date;
  durationSeconds: number;
  anum: string;
  bnum: string;
  cnum: string | null;
  answered: boolean;
  voicemail: boolean;
  anumNdcName: string | null;
  quarantined: boolean;
  /** Two-decimal string, or null when the call earned nothing. */
  commission: string | null;
  media: string | null;
  sourceClass: string | null;
  expire: Date | null;
  publisherId: string | null;
  cliId: string | null;
  orderId: string | null;
  sessionId: string | null;
  trackingId: string | null;
  fullUrl: string | null;
  fullReferrer: string | null;
  parameters: Record<string, string> | null;
  /** How sure the attribution is; null when not known (docs/cdrs.md, Attribution confidence). */
  attribution: AttributionKind | null;
  /** Whole seconds from the pool binding's creation to the call; null without one. */
  boundSeconds: number | null;
  /** The session's click and analytics ids (docs/conversions.md); each null when not sent. */
  marketing: MarketingIds;
  /** What the partner reported of the call afterwards; null until it does. */
  outcome: CdrOutcome | null;
  /** The provider's STIR/SHAKEN verification (docs/spam.md); null when none was sent. */
  stirVerstat: string | null;
  /** 0–100; null for records stored before spam scoring. */
  spamScore: number | null;
  /** Stable reason codes (docs/spam.md, Scoring); empty when nothing counted. */
  spamReasons: SpamReason[];
  /** Judged spam, or marked so by the partner: earns nothing, notifies no missed call. */
  spam: boolean;
  /** The partner's own mark; null when never marked. */
  spamMarked: boolean | null;
  hasRecording: boolean;
  timestamp: Date;
  /**
   * The call's transcript as the extended record shows it (docs/call-intelligence.md, API); null
   * when it has none, or when the query that read the record did not join it (ingestion's own reads).
   */
  transcript: CdrTranscriptSummary | null;
}

/** A transcript's state, class and spotted keywords, read beside the record (cdrs.store.ts). */
export interface CdrTranscriptSummary {
  status: 'pending' | 'done' | 'failed';
  classification: string | null;
  keywords: string[];
}

/** The outcome the partner posted (docs/conversions.md, Outcomes); amounts as decimal strings. */
export interface CdrOutcome {
  status: OutcomeStatus;
  value: string | null;
  currency: string | null;
  note: string | null;
  /** When it was last changed. */
  at: Date;
}

/**
 * A new record: everything but the id, whether it has a recording (the bytes are given), the
 * outcome, which only the partner posts later, and the transcript, which the worker writes later.
 */
export type NewCdr = Omit<Cdr, 'id' | 'hasRecording' | 'outcome' | 'transcript'> & {
  recording: Buffer | null;
};

/** Who a dialled number belongs to. */
export interface DialledNumber {
  partnerId: string;
  advId: string;
  timeZone: string;
  /** The partner's country: the caller's number is read in it. */
  country: CountryCode;
  kind: NumberKind;
  heldUntil: Date | null;
  /** The partner's spam threshold (docs/spam.md); absent: DEFAULT_SPAM_THRESHOLD. */
  spamThreshold?: number;
}
