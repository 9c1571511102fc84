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
  find(callSid: string): Promise<TwilioCallState | null>;
  /** Marks the call done (first completion wins); false when it already was. */
  complete(callSid: string, cdrId: string | null, outcome: string, now: Date): Promise<boolean>;
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

  async find(callSid: string): Promise<TwilioCallState | null> {
    const row = await this.manager.getRepository(TwilioCallEntity).findOneBy({ callSid });
    return row === null ? null : toState(row);
  }

  async complete(callSid: string, cdrId: string | null, outcome: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TwilioCallEntity)
      .set({ completedAt: now, cdrId, outcome: outcome.slice(0, 500) })
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
  };
}
