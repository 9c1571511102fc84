import type { EntityManager } from 'typeorm';
import { TwilioCallEntity } from './twilio-call.entity';

/** What the callbacks of one call said so far. */
export interface TwilioCallState {
  callSid: string;
  to: string | null;
  from: string | null;
  /** The final CallStatus (completed, busy, no-answer, failed, canceled); null until it arrives. */
  callStatus: string | null;
  callDuration: number | null;
  recordingSid: string | null;
  recordingUrl: string | null;
  recordingStatus: string | null;
  recordingDuration: number | null;
  firstCallback: Date;
  lastCallback: Date;
  completedAt: Date | null;
  cdrId: string | null;
  /** The stored record's partner and start, with `cdrId`. */
  partnerId: string | null;
  cdrStart: Date | null;
  /** The answered call's recording (docs/telephony.md, Recording answered calls); null until reported. */
  conversation: ConversationCallback | null;
}

/** A completed recording of the answered call (`<Dial record>`), its URL already checked. */
export interface ConversationCallback {
  recordingSid: string;
  recordingUrl: string;
  channels: number;
  durationSeconds: number | null;
}

/** The record a call was stored as. */
export interface StoredRecord {
  id: string;
  partnerId: string;
  start: Date;
}

export interface StatusCallback {
  to: string;
  from: string;
  callStatus: string;
  callDuration: number;
}

export interface RecordingCallback {
  to: string | null;
  recordingSid: string;
  recordingUrl: string;
  recordingStatus: string;
  recordingDuration: number;
}

export interface TwilioCallsStore {
  /** Merges a final status callback into the call's row (created on first sight); returns the row. */
  saveStatus(callSid: string, status: StatusCallback, now: Date): Promise<TwilioCallState>;
  saveRecording(callSid: string, recording: RecordingCallback, now: Date): Promise<TwilioCallState>;
  /** Keeps the answered call's recording reference (a repeat overwrites it with the same). */
  saveConversation(
    callSid: string,
    to: string | null,
    conversation: ConversationCallback,
    now: Date,
  ): Promise<TwilioCallState>;
  find(callSid: string): Promise<TwilioCallState | null>;
  /** Marks the call done (first completion wins); false when it already was. */
  complete(callSid: string, record: StoredRecord | null, outcome: string, now: Date): Promise<boolean>;
  /** Calls not completed whose last callback is older than `before`, oldest first. */
  stale(before: Date, limit: number): Promise<string[]>;
  /** Forgets calls completed before `before` (their record is stored); returns how many. */
  purgeCompleted(before: Date): Promise<number>;
}

export class TypeormTwilioCallsStore implements TwilioCallsStore {
  constructor(private readonly manager: EntityManager) {}

  async saveStatus(callSid: string, status: StatusCallback, now: Date): Promise<TwilioCallState> {
    await this.manager.query(
      `INSERT INTO "twilio_calls" ("call_sid", "to_number", "from_number", "call_status", "call_duration",
                                   "first_callback", "last_callback")
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT ("call_sid") DO UPDATE SET
         "to_number" = COALESCE("twilio_calls"."to_number", EXCLUDED."to_number"),
         "from_number" = EXCLUDED."from_number",
         "call_status" = EXCLUDED."call_status",
         "call_duration" = EXCLUDED."call_duration",
         "last_callback" = GREATEST("twilio_calls"."last_callback", EXCLUDED."last_callback")`,
      [callSid, status.to, status.from, status.callStatus, status.callDuration, now],
    );
    return (await this.find(callSid))!;
  }

  async saveRecording(callSid: string, recording: RecordingCallback, now: Date): Promise<TwilioCallState> {
    await this.manager.query(
      `INSERT INTO "twilio_calls" ("call_sid", "to_number", "recording_sid", "recording_url", "recording_status",
                                   "recording_duration", "first_callback", "last_callback")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT ("call_sid") DO UPDATE SET
         "to_number" = COALESCE("twilio_calls"."to_number", EXCLUDED."to_number"),
         "recording_sid" = EXCLUDED."recording_sid",
         "recording_url" = EXCLUDED."recording_url",
         "recording_status" = EXCLUDED."recording_status",
         "recording_duration" = EXCLUDED."recording_duration",
         "last_callback" = GREATEST("twilio_calls"."last_callback", EXCLUDED."last_callback")`,
      [
        callSid,
        recording.to,
        recording.recordingSid,
        recording.recordingUrl,
        recording.recordingStatus,
        recording.recordingDuration,
        now,
      ],
    );
    return (await this.find(callSid))!;
  }

  async saveConversation(
    callSid: string,
    to: string | null,
    conversation: ConversationCallback,
    now: Date,
  ): Promise<TwilioCallState> {
    await this.manager.query(
      `INSERT INTO "twilio_calls" ("call_sid", "to_number", "conversation_sid", "conversation_url",
                                   "conversation_channels", "conversation_duration", "first_callback", "last_callback")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT ("call_sid") DO UPDATE SET
         "to_number" = COALESCE("twilio_calls"."to_number", EXCLUDED."to_number"),
         "conversation_sid" = EXCLUDED."conversation_sid",
         "conversation_url" = EXCLUDED."conversation_url",
         "conversation_channels" = EXCLUDED."conversation_channels",
         "conversation_duration" = EXCLUDED."conversation_duration",
         "last_callback" = GREATEST("twilio_calls"."last_callback", EXCLUDED."last_callback")`,
      [
        callSid,
        to,
        conversation.recordingSid,
        conversation.recordingUrl,
        conversation.channels,
        conversation.durationSeconds,
        now,
      ],
    );
    return (await this.find(callSid))!;
  }

  async find(callSid: string): Promise<TwilioCallState | null> {
    const row = await this.manager.getRepository(TwilioCallEntity).findOneBy({ callSid });
    return row === null ? null : toState(row);
  }

  async complete(callSid: string, record: StoredRecord | null, outcome: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TwilioCallEntity)
      .set({
        completedAt: now,
        cdrId: record?.id ?? null,
        partnerId: record?.partnerId ?? null,
        cdrStart: record?.start ?? null,
        outcome: outcome.slice(0, 500),
      })
      .where('call_sid = :callSid AND completed_at IS NULL', { callSid })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async stale(before: Date, limit: number): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT "call_sid" FROM "twilio_calls"
        WHERE "completed_at" IS NULL AND "last_callback" < $1
        ORDER BY "last_callback" LIMIT $2`,
      [before, limit],
    )) as Array<{ call_sid: string }>;
    return rows.map((row) => row.call_sid);
  }

  async purgeCompleted(before: Date): Promise<number> {
    const result = await this.manager
      .createQueryBuilder()
      .delete()
      .from(TwilioCallEntity)
      .where('completed_at < :before', { before })
      .execute();
    return result.affected ?? 0;
  }
}

function toState(row: TwilioCallEntity): TwilioCallState {
  return {
    callSid: row.callSid,
    to: row.toNumber,
    from: row.fromNumber,
    callStatus: row.callStatus,
    callDuration: row.callDuration,
    recordingSid: row.recordingSid,
    recordingUrl: row.recordingUrl,
    recordingStatus: row.recordingStatus,
    recordingDuration: row.recordingDuration,
    firstCallback: row.firstCallback,
    lastCallback: row.lastCallback,
    completedAt: row.completedAt,
    cdrId: row.cdrId,
    partnerId: row.partnerId,
    cdrStart: row.cdrStart,
    conversation:
      row.conversationSid === null || row.conversationUrl === null
        ? null
        : {
            recordingSid: row.conversationSid,
            recordingUrl: row.conversationUrl,
            channels: row.conversationChannels ?? 1,
            durationSeconds: row.conversationDuration,
          },
  };
}
