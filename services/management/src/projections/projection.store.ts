import type { OnExhausted, PartnerConfig, PartnerProjection } from '@trackline/contracts';
import type { CountryCode } from '@trackline/domain';
import type { DataSource, EntityManager } from 'typeorm';
import { projectSourceRoutes, type SourceRouteRow } from './source-route-rows';

export interface PartnerProjectionReader {
  /** What Redis must hold for the partner at `now`, read from committed data; null when no such partner. */
  load(partnerId: string, now: Date): Promise<PartnerProjection | null>;
}

export interface ProjectionStore {
  /** Every partner, by id. */
  partnerIds(): Promise<string[]>;
  /**
   * Runs `work` holding the partner's projection lock, shared by every management process. Writers
   * of one partner take turns and each reads after the previous one finished, so whatever order
   * they run in, the last write to Redis carries every commit made before it started.
   */
  withPartnerLock<T>(partnerId: string, work: (reader: PartnerProjectionReader) => Promise<T>): Promise<T>;
}

export class TypeormProjectionStore implements ProjectionStore {
  constructor(private readonly dataSource: DataSource) {}

  async partnerIds(): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT id FROM partners ORDER BY id')) as Array<{
      id: string;
    }>;
    return rows.map((row) => row.id);
  }

  withPartnerLock<T>(partnerId: string, work: (reader: PartnerProjectionReader) => Promise<T>): Promise<T> {
    // READ COMMITTED: every query after the lock sees what was committed before it ran.
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `trackline.projection:${partnerId}`,
      ]);
      return work(new SqlProjectionReader(manager));
    });
  }
}

interface PartnerRow {
  name: string;
  signing_secret: string;
  country: string;
  time_zone: string;
  dni_session_ttl_seconds: number;
  dni_hold_back_seconds: number;
  dni_on_exhausted: string;
  dni_fallback_number: string | null;
  ring_timeout_seconds: number | null;
  screen_calls: boolean;
}

interface SourceRow {
  id: string;
  customer_id: string;
  destnr: string;
  phonenr: string;
  status: 'active' | 'closed';
  closed_at: Date | null;
  held_until: Date | null;
  alt_numbers: SourceRouteRow['altNumbers'];
  vm_divert_all: boolean;
  vm_divert_busy: boolean;
  vm_divert_noanswer: boolean;
  vm_greeting_id: string | null;
  campaign_id: string | null;
  campaign_vm_divert_all: boolean | null;
  campaign_vm_divert_busy: boolean | null;
  campaign_vm_divert_noanswer: boolean | null;
  campaign_vm_greeting_id: string | null;
}

class SqlProjectionReader implements PartnerProjectionReader {
  constructor(private readonly manager: EntityManager) {}

  async load(partnerId: string, now: Date): Promise<PartnerProjection | null> {
    const [partner] = (await this.manager.query(
      `SELECT name, signing_secret, country, time_zone, dni_session_ttl_seconds, dni_hold_back_seconds,
              dni_on_exhausted, dni_fallback_number, ring_timeout_seconds, screen_calls
         FROM partners WHERE id = $1`,
      [partnerId],
    )) as PartnerRow[];
    if (partner === undefined) return null;
    const pool = (await this.manager.query(
      `SELECT e164 FROM tracking_numbers WHERE partner_id = $1 AND kind = 'pool' ORDER BY e164`,
      [partnerId],
    )) as Array<{ e164: string }>;
    // Candidates only: open sources, and closed ones whose number is still held back; the choice per
    // number is projectSourceRoutes'. A closed campaign's settings no longer apply to its sources.
    const sources = (await this.manager.query(
      `SELECT s.id, s.customer_id, s.destnr, s.phonenr, s.status, s.closed_at, n.held_until, s.alt_numbers,
              s.vm_divert_all, s.vm_divert_busy, s.vm_divert_noanswer, s.vm_greeting_id,
              c.id AS campaign_id, c.vm_divert_all AS campaign_vm_divert_all,
              c.vm_divert_busy AS campaign_vm_divert_busy, c.vm_divert_noanswer AS campaign_vm_divert_noanswer,
              c.vm_greeting_id AS campaign_vm_greeting_id
         FROM sources s
         JOIN tracking_numbers n ON n.e164 = s.destnr AND n.partner_id = s.partner_id
         LEFT JOIN campaigns c ON c.id = s.campaign_id AND c.state <> '2'
        WHERE s.partner_id = $1 AND (s.status = 'active' OR n.held_until > $2)`,
      [partnerId, now],
    )) as SourceRow[];
    return {
      config: toPartnerConfig(partner),
      poolNumbers: pool.map((row) => row.e164),
      sources: projectSourceRoutes(sources.map(toSourceRouteRow), now),
    };
  }
}

function toPartnerConfig(row: PartnerRow): PartnerConfig {
  return {
    advId: row.name,
    signingSecret: row.signing_secret,
    // The partners service wrote these after checking them; the codec checks them again on encode.
    country: row.country as CountryCode,
    timeZone: row.time_zone,
    sessionTtlSeconds: row.dni_session_ttl_seconds,
    holdBackSeconds: row.dni_hold_back_seconds,
    onExhausted: row.dni_on_exhausted as OnExhausted,
    fallbackNumber: row.dni_fallback_number,
    ringTimeoutSeconds: row.ring_timeout_seconds,
    screenCalls: row.screen_calls,
  };
}

function toSourceRouteRow(row: SourceRow): SourceRouteRow {
  return {
    id: row.id,
    customerId: row.customer_id,
    destnr: row.destnr,
    phonenr: row.phonenr,
    status: row.status,
    closedAt: row.closed_at,
    heldUntil: row.held_until,
    altNumbers: row.alt_numbers,
    vmDivertAll: row.vm_divert_all,
    vmDivertBusy: row.vm_divert_busy,
    vmDivertNoanswer: row.vm_divert_noanswer,
    vmGreetingId: row.vm_greeting_id,
    campaign:
      row.campaign_id === null
        ? null
        : {
            vmDivertAll: row.campaign_vm_divert_all === true,
            vmDivertBusy: row.campaign_vm_divert_busy === true,
            vmDivertNoanswer: row.campaign_vm_divert_noanswer === true,
            vmGreetingId: row.campaign_vm_greeting_id,
          },
  };
}
