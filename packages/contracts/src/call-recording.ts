/**
 * Recording answered calls (docs/telephony.md, Recording answered calls): what management projects
 * and replacement's voice webhook reads, so the two agree on the announcement's default and length.
 */

/** Said before a recorded call is put through unless the partner words it otherwise (or empties it). */
export const DEFAULT_CONSENT_ANNOUNCEMENT = 'This call may be recorded.';
/** Characters; the settings API refuses longer, the projection codecs too. */
export const CONSENT_MAX_LENGTH = 500;

/** A source's override of its partner's recording settings; each null: the partner's applies. */
export interface SourceCallRecording {
  recordCalls: boolean | null;
  consentAnnouncement: string | null;
}

/** Whether the call is recorded and what the caller hears first ('' : nothing). */
export interface CallRecordingDecision {
  record: boolean;
  consentAnnouncement: string;
}

/**
 * The source's setting where it has one, else the partner's. A partner projected before recording
 * existed has neither field: not recorded, and the default announcement should a source turn it on.
 */
export function callRecordingFor(
  partner: { recordCalls?: boolean; consentAnnouncement?: string },
  source: SourceCallRecording | null | undefined,
): CallRecordingDecision {
  return {
    record: source?.recordCalls ?? partner.recordCalls ?? false,
    consentAnnouncement:
      source?.consentAnnouncement ?? partner.consentAnnouncement ?? DEFAULT_CONSENT_ANNOUNCEMENT,
  };
}
