import type { CountryCode } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import { DEFAULT_POOL_SETTINGS, type PoolSettings } from './pool-settings';

/** The number_pool_settings table; the numbers feature is its only door. */
export interface PoolSettingsStore {
  /** The pool's settings; the defaults when it has never been given any. */
  find(partnerId: string): Promise<PoolSettings>;
  /** Also makes the pool due: an autoscaling pool is evaluated at the next check under its new settings. */
  save(partnerId: string, settings: PoolSettings, now: Date): Promise<void>;
  /** Partners whose pool autoscales, in id order. */
  autoscalingPartnerIds(): Promise<string[]>;
  /**
   * Takes the pool's evaluation for this round: true for exactly one caller among replicas racing
   * for it, when autoscaling is on and the last evaluation began at least `intervalMs` ago.
   */
  claimEvaluation(partnerId: string, now: Date, intervalMs: number): Promise<boolean>;
}

interface SettingsRow {
  session_lifetime_seconds: number | null;
  hold_back_seconds: number | null;
  autoscaling: boolean;
  min_size: number;
  max_size: number | null;
  target_overflow: string | null;
  max_monthly_cost: string | null;
  number_monthly_price: string | null;
  country: string | null;
  area_code: string | null;
  contains: string | null;
}

export class TypeormPoolSettingsStore implements PoolSettingsStore {
  constructor(private readonly manager: EntityManager) {}

  async find(partnerId: string): Promise<PoolSettings> {
    const [row] = (await this.manager.query(
      `SELECT session_lifetime_seconds, hold_back_seconds, autoscaling, min_size, max_size, target_overflow,
              max_monthly_cost, number_monthly_price, country, area_code, contains
         FROM number_pool_settings WHERE partner_id = $1`,
      [partnerId],
    )) as SettingsRow[];
    return row === undefined ? DEFAULT_POOL_SETTINGS : toSettings(row);
  }

  async save(partnerId: string, settings: PoolSettings, now: Date): Promise<void> {
    const policy = settings.autoscaling;
    await this.manager.query(
      `INSERT INTO number_pool_settings (partner_id, session_lifetime_seconds, hold_back_seconds, autoscaling,
              min_size, max_size, target_overflow, max_monthly_cost, number_monthly_price, country, area_code,
              contains, modified)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (partner_id) DO UPDATE SET
              session_lifetime_seconds = EXCLUDED.session_lifetime_seconds,
              hold_back_seconds = EXCLUDED.hold_back_seconds, autoscaling = EXCLUDED.autoscaling,
              min_size = EXCLUDED.min_size, max_size = EXCLUDED.max_size,
              target_overflow = EXCLUDED.target_overflow, max_monthly_cost = EXCLUDED.max_monthly_cost,
              number_monthly_price = EXCLUDED.number_monthly_price, country = EXCLUDED.country,
              area_code = EXCLUDED.area_code, contains = EXCLUDED.contains, modified = EXCLUDED.modified,
              -- Changed settings are evaluated at the next check, not an interval after the last.
              last_evaluated_at = NULL`,
      [
        partnerId,
        settings.sessionLifetimeSeconds,
        settings.holdBackSeconds,
        policy.enabled,
        policy.min,
        policy.max,
        policy.targetOverflow,
        policy.maxMonthlyCost,
        policy.numberMonthlyPrice,
        policy.country,
        policy.areaCode,
        policy.contains,
        now,
      ],
    );
  }

  async autoscalingPartnerIds(): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT partner_id FROM number_pool_settings WHERE autoscaling ORDER BY partner_id`,
    )) as Array<{ partner_id: string }>;
    return rows.map((row) => row.partner_id);
  }

  async claimEvaluation(partnerId: string, now: Date, intervalMs: number): Promise<boolean> {
    // One statement: the row lock makes a racing replica wait, then see the new time and match nothing.
    const [, count] = (await this.manager.query(
      `UPDATE number_pool_settings SET last_evaluated_at = $2
        WHERE partner_id = $1 AND autoscaling
          AND (last_evaluated_at IS NULL OR last_evaluated_at <= $2::timestamptz - make_interval(secs => $3))
        RETURNING 1`,
      [partnerId, now, intervalMs / 1000],
    )) as [unknown, number];
    return count === 1;
  }
}

function toSettings(row: SettingsRow): PoolSettings {
  const amount = (value: string | null): number | null => (value === null ? null : Number(value));
  return {
    sessionLifetimeSeconds: row.session_lifetime_seconds,
    holdBackSeconds: row.hold_back_seconds,
    autoscaling: {
      enabled: row.autoscaling,
      min: row.min_size,
      max: row.max_size,
      targetOverflow: amount(row.target_overflow),
      maxMonthlyCost: amount(row.max_monthly_cost),
      numberMonthlyPrice: amount(row.number_monthly_price),
      country: row.country as CountryCode | null,
      areaCode: row.area_code,
      contains: row.contains,
    },
  };
}
