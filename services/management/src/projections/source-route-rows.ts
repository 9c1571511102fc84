import type { RouteAltRule, SourceRoute } from '@trackline/contracts';
import { compareDecimalIds, type Weekday } from '@trackline/domain';
import type { CampaignVoicemailRow } from '../campaigns/campaigns.store';
import type { SourceRouteCandidate } from '../sources/sources.store';

/** A source as the projection reads it (from the sources store), with its number's hold-back and its campaign's voicemail settings. */
export interface SourceRouteRow extends Omit<SourceRouteCandidate, 'campaignId'> {
  /** The end of the static number's hold-back after its source closed. */
  heldUntil: Date | null;
  /** Null when the source has no campaign, or its campaign is closed. */
  campaign: CampaignVoicemail | null;
}

/** The voicemail settings a campaign lends its sources. */
export type CampaignVoicemail = CampaignVoicemailRow;

/**
 * The routes replacement gets for a partner's static numbers at `now`: per number the open source,
 * else the source closed last while its number is held back (calls still reach it, marked
 * quarantined). A number past its hold-back routes nowhere, so its source is left out.
 *
 * Voicemail: a campaign's settings apply to its sources — diverting (all calls, or on busy, or on
 * no answer) when either the source or its campaign says so, and the source's own greeting before
 * the campaign's. A source flag at 0 cannot switch off its campaign's: the flags only add diversion.
 */
export function projectSourceRoutes(rows: readonly SourceRouteRow[], now: Date): SourceRoute[] {
  const chosen = new Map<string, SourceRouteRow>();
  for (const row of rows) {
    if (row.status === 'closed' && (row.heldUntil === null || row.heldUntil <= now)) continue;
    const current = chosen.get(row.destnr);
    if (current === undefined || ranksAbove(row, current)) chosen.set(row.destnr, row);
  }
  return [...chosen.values()].sort((a, b) => compareDecimalIds(a.id, b.id)).map(toSourceRoute);
}

function ranksAbove(a: SourceRouteRow, b: SourceRouteRow): boolean {
  if (a.status !== b.status) return a.status === 'active';
  const aClosed = a.closedAt?.getTime() ?? 0;
  const bClosed = b.closedAt?.getTime() ?? 0;
  if (aClosed !== bClosed) return aClosed > bClosed;
  return compareDecimalIds(a.id, b.id) > 0;
}

function toSourceRoute(row: SourceRouteRow): SourceRoute {
  return {
    sourceId: row.id,
    customerId: row.customerId,
    destnr: row.destnr,
    phonenr: row.phonenr,
    altNumbers: row.altNumbers.map((rule): RouteAltRule => ({
      phonenr: rule.phonenr,
      weekdays: rule.weekdays as Weekday[],
      fromMinute: rule.from_minute,
      toMinute: rule.to_minute,
      altKey: rule.alt_key,
    })),
    vmDivertAll: row.vmDivertAll || (row.campaign?.vmDivertAll ?? false),
    vmDivertBusy: row.vmDivertBusy || (row.campaign?.vmDivertBusy ?? false),
    vmDivertNoanswer: row.vmDivertNoanswer || (row.campaign?.vmDivertNoanswer ?? false),
    vmGreetingId: row.vmGreetingId ?? row.campaign?.vmGreetingId ?? null,
    closed: row.status === 'closed',
    ...(row.spamPolicy === null ? {} : { spamPolicy: row.spamPolicy }),
    // Recording only: transcription is management's business, never the voice webhook's.
    ...(row.callSettings.recordCalls === null && row.callSettings.consentAnnouncement === null
      ? {}
      : {
          callRecording: {
            recordCalls: row.callSettings.recordCalls,
            consentAnnouncement: row.callSettings.consentAnnouncement,
          },
        }),
  };
}
