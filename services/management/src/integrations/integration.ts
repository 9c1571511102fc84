import type { OutcomeStatus } from '@trackline/domain';

/** The conversion destinations a partner can connect (docs/conversions.md, Set-up). */
export const INTEGRATION_KINDS = ['google_ads', 'ga4'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** Google Ads offline click conversions: the account, what counts, and the OAuth grant. */
export interface GoogleAdsIntegration {
  kind: 'google_ads';
  paused: boolean;
  /** The client account the conversions are uploaded to: ten digits, no dashes. */
  customerId: string;
  /** The manager account the OAuth user signs in through; null when it signs in to the client itself. */
  loginCustomerId: string | null;
  /** The conversion action of a counting call. */
  conversionActionId: string;
  /** The conversion action of an outcome; null: the call's. */
  outcomeConversionActionId: string | null;
  /** An answered call counts when it lasted longer than this many seconds. */
  callMinDuration: number;
  /** The outcome statuses that count as a conversion of their own. */
  outcomeStatuses: OutcomeStatus[];
  /** Whether the caller's number, normalised and SHA-256 hashed, goes with each conversion. */
  enhancedConversions: boolean;
  oauthClientId: string;
  secrets: { oauthClientSecret: string; refreshToken: string; developerToken: string };
  modified: Date;
}

/** GA4 Measurement Protocol: a web data stream and one of its API secrets. */
export interface Ga4Integration {
  kind: 'ga4';
  paused: boolean;
  measurementId: string;
  secrets: { apiSecret: string };
  modified: Date;
}

export type PartnerIntegration = GoogleAdsIntegration | Ga4Integration;

/** An integration as stored: its id names the lane its conversions wait in. */
export type StoredIntegration = PartnerIntegration & { id: string };

/** What a counting call needs by default: answered and longer than a minute. */
export const DEFAULT_CALL_MIN_DURATION = 60;
/** A `not_a_lead` outcome is never a conversion. */
export const CONVERTING_STATUSES: readonly OutcomeStatus[] = ['lead', 'qualified', 'sale'];
