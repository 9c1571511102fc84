import type { EntityManager } from 'typeorm';
import {
  DEFAULT_CLASSIFICATION_RULES,
  parseClassificationRules,
  type CallSignals,
  type ClassificationRules,
} from '@trackline/domain';
import {
  callIntelligenceFromJson,
  effectiveCallSettings,
  sourceCallIntelligenceSettingsFromJson,
  type CallIntelligenceSettings,
} from '../partners/call-intelligence-settings';

/** What a transcription job needs to know of its call besides the audio. */
export interface TranscriptionContext {
  partnerId: string;
  cdrId: string;
  cdrStart: Date;
  settings: CallIntelligenceSettings;
  /** The source's rules, else the partner's, else the built-in ones. */
  rules: ClassificationRules;
  signals: CallSignals;
  /** The partner (or an earlier classification) already set the call's outcome. */
  hasOutcome: boolean;
}

type Row = Record<string, unknown>;

/**
 * The call record with its partner's and source's settings and rules, in one query; null when the
 * record is gone (its retention ran out, or it was erased).
 */
export class SqlTranscriptionContextReader {
  constructor(private readonly manager: EntityManager) {}

  async find(cdrId: string, cdrStart: Date): Promise<TranscriptionContext | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT c."partner_id"::text AS "partner_id", c."voicemail", c."spam", c."duration",
              c."outcome_status" IS NOT NULL AS "has_outcome",
              p."call_intelligence" AS "partner_settings", p."classification_rules" AS "partner_rules",
              s."call_intelligence" AS "source_settings", s."classification_rules" AS "source_rules",
              NOT EXISTS (SELECT 1 FROM "cdrs" e WHERE e."partner_id" = c."partner_id" AND e."anum" = c."anum"
                            AND e."start" < c."start") AS "first_time"
         FROM "cdrs" c
         JOIN "partners" p ON p."id" = c."partner_id"
         LEFT JOIN "sources" s ON s."id" = c."source_id"
        WHERE c."id" = $1 AND c."start" = $2`,
      [cdrId, cdrStart],
    );
    const row = rows[0];
    if (row === undefined) return null;
    return {
      partnerId: row.partner_id as string,
      cdrId,
      cdrStart,
      settings: effectiveCallSettings(
        callIntelligenceFromJson(row.partner_settings as Record<string, unknown>),
        row.source_settings === null
          ? null
          : sourceCallIntelligenceSettingsFromJson(row.source_settings as Record<string, unknown>),
      ),
      rules: storedRules(row.source_rules) ?? storedRules(row.partner_rules) ?? DEFAULT_CLASSIFICATION_RULES,
      signals: {
        voicemail: row.voicemail as boolean,
        spam: row.spam as boolean,
        durationSeconds: row.duration as number,
        firstTimeCaller: row.first_time as boolean,
      },
      hasOutcome: row.has_outcome as boolean,
    };
  }
}

/** Rules as stored (checked when they were put); unreadable ones count as none. */
function storedRules(value: unknown): ClassificationRules | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    return parseClassificationRules(value);
  } catch {
    return undefined;
  }
}
