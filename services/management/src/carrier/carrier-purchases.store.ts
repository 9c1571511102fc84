import type { EntityManager } from 'typeorm';
import type { NumberKind } from '../numbers/tracking-number.entity';

/** A purchase the carrier service has not finished: `intent` (answer unknown) or `bought`. */
export interface UnfinishedPurchase {
  id: string;
  partnerId: string;
  e164: string;
  kind: NumberKind;
  friendlyName: string;
  sid: string | null;
  state: 'intent' | 'bought';
}

/** "carrier_purchases": each purchase written before the carrier is asked (docs/carrier-numbers.md, Idempotent buying). */
export interface CarrierPurchasesStore {
  /** Written before the POST; returns the row's id. */
  recordIntent(
    partnerId: string,
    purchase: { e164: string; kind: NumberKind; friendlyName: string },
    now: Date,
  ): Promise<string>;
  markBought(id: string, sid: string, now: Date): Promise<void>;
  markDone(id: string, now: Date): Promise<void>;
  /** The carrier does not have the number for this purchase: nothing to finish. */
  markAbandoned(id: string, now: Date): Promise<void>;
  /** The partner's unfinished purchases, oldest first. */
  unfinished(partnerId: string): Promise<UnfinishedPurchase[]>;
  /** Partners with unfinished purchases (carrier:reconcile). */
  partnersWithUnfinished(): Promise<string[]>;
}

export class TypeormCarrierPurchasesStore implements CarrierPurchasesStore {
  constructor(private readonly manager: EntityManager) {}

  async recordIntent(
    partnerId: string,
    purchase: { e164: string; kind: NumberKind; friendlyName: string },
    now: Date,
  ): Promise<string> {
    const rows = (await this.manager.query(
      `INSERT INTO carrier_purchases (partner_id, e164, kind, friendly_name, state, created, modified)
       VALUES ($1, $2, $3, $4, 'intent', $5, $5) RETURNING id::text AS id`,
      [partnerId, purchase.e164, purchase.kind, purchase.friendlyName, now],
    )) as Array<{ id: string }>;
    return rows[0]!.id;
  }

  async markBought(id: string, sid: string, now: Date): Promise<void> {
    await this.setState(id, 'bought', now, sid);
  }

  async markDone(id: string, now: Date): Promise<void> {
    await this.setState(id, 'done', now);
  }

  async markAbandoned(id: string, now: Date): Promise<void> {
    await this.setState(id, 'abandoned', now);
  }

  async unfinished(partnerId: string): Promise<UnfinishedPurchase[]> {
    const rows = (await this.manager.query(
      `SELECT id::text AS id, partner_id::text AS partner_id, e164, kind, friendly_name, sid, state
         FROM carrier_purchases WHERE partner_id = $1 AND state IN ('intent', 'bought') ORDER BY id`,
      [partnerId],
    )) as Array<Record<string, string | null>>;
    return rows.map((row) => ({
      id: row.id!,
      partnerId: row.partner_id!,
      e164: row.e164!,
      kind: row.kind as NumberKind,
      friendlyName: row.friendly_name!,
      sid: row.sid,
      state: row.state as UnfinishedPurchase['state'],
    }));
  }

  async partnersWithUnfinished(): Promise<string[]> {
    const rows = (await this.manager.query(
      `SELECT DISTINCT partner_id::text AS partner_id FROM carrier_purchases
        WHERE state IN ('intent', 'bought') ORDER BY 1`,
    )) as Array<{ partner_id: string }>;
    return rows.map((row) => row.partner_id);
  }

  private async setState(id: string, state: string, now: Date, sid?: string): Promise<void> {
    await this.manager.query(
      `UPDATE carrier_purchases SET state = $2, modified = $3, sid = COALESCE($4, sid) WHERE id = $1`,
      [id, state, now, sid ?? null],
    );
  }
}
