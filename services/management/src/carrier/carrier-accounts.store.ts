import type { EntityManager } from 'typeorm';
import type { CarrierAccount } from './carrier-account';

export interface CarrierAccountsStore {
  find(partnerId: string): Promise<CarrierAccount | null>;
  save(partnerId: string, account: CarrierAccount): Promise<void>;
  /** False when there was none. */
  remove(partnerId: string): Promise<boolean>;
}

interface Row {
  account_sid: string;
  base_url: string;
  secrets: { authToken: string };
  modified: Date;
}

/** Reads and writes "carrier_accounts"; the auth token is kept apart in `secrets`, as integration secrets are. */
export class TypeormCarrierAccountsStore implements CarrierAccountsStore {
  constructor(private readonly manager: EntityManager) {}

  async find(partnerId: string): Promise<CarrierAccount | null> {
    const rows = (await this.manager.query(
      `SELECT "account_sid", "base_url", "secrets", "modified" FROM "carrier_accounts" WHERE "partner_id" = $1`,
      [partnerId],
    )) as Row[];
    const row = rows[0];
    if (row === undefined) return null;
    return {
      accountSid: row.account_sid,
      baseUrl: row.base_url,
      authToken: row.secrets.authToken,
      modified: row.modified,
    };
  }

  async save(partnerId: string, account: CarrierAccount): Promise<void> {
    await this.manager.query(
      `INSERT INTO "carrier_accounts" ("partner_id", "account_sid", "base_url", "secrets", "modified")
       VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT ("partner_id") DO UPDATE
         SET "account_sid" = EXCLUDED."account_sid", "base_url" = EXCLUDED."base_url",
             "secrets" = EXCLUDED."secrets", "modified" = EXCLUDED."modified"`,
      [
        partnerId,
        account.accountSid,
        account.baseUrl,
        JSON.stringify({ authToken: account.authToken }),
        account.modified,
      ],
    );
  }

  async remove(partnerId: string): Promise<boolean> {
    const [, count] = (await this.manager.query(`DELETE FROM "carrier_accounts" WHERE "partner_id" = $1`, [
      partnerId,
    ])) as [unknown, number];
    return count > 0;
  }
}
