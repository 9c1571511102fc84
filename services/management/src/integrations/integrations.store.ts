import type { OutcomeStatus } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import type { IntegrationKind, PartnerIntegration, StoredIntegration } from './integration';

export interface IntegrationsStore {
  find(partnerId: string, kind: IntegrationKind): Promise<StoredIntegration | null>;
  /** Every integration of the partner, paused ones included. */
  list(partnerId: string): Promise<StoredIntegration[]>;
  save(partnerId: string, integration: PartnerIntegration): Promise<void>;
  /** False when there was none. */
  remove(partnerId: string, kind: IntegrationKind): Promise<boolean>;
}

type Row = Record<string, unknown>;

/** Reads and writes "partner_integrations"; settings and secrets are kept apart. */
export class TypeormIntegrationsStore implements IntegrationsStore {
  constructor(private readonly manager: EntityManager) {}

  async find(partnerId: string, kind: IntegrationKind): Promise<StoredIntegration | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT "id"::text AS "id", "kind", "settings", "secrets", "modified" FROM "partner_integrations" WHERE "partner_id" = $1 AND "kind" = $2`,
      [partnerId, kind],
    );
    return rows[0] === undefined ? null : integrationFromRow(rows[0]);
  }

  async list(partnerId: string): Promise<StoredIntegration[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT "id"::text AS "id", "kind", "settings", "secrets", "modified" FROM "partner_integrations" WHERE "partner_id" = $1 ORDER BY "kind"`,
      [partnerId],
    );
    return rows.map(integrationFromRow);
  }

  async save(partnerId: string, integration: PartnerIntegration): Promise<void> {
    const { kind, secrets, modified, ...rest } = integration;
    // The id is the row's own; what a caller read back with it is not a setting.
    const { id: _id, ...settings } = rest as typeof rest & { id?: string };
    await this.manager.query(
      `INSERT INTO "partner_integrations" ("partner_id", "kind", "settings", "secrets", "modified")
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)
       ON CONFLICT ("partner_id", "kind") DO UPDATE
         SET "settings" = EXCLUDED."settings", "secrets" = EXCLUDED."secrets", "modified" = EXCLUDED."modified"`,
      [partnerId, kind, JSON.stringify(settings), JSON.stringify(secrets), modified],
    );
  }

  async remove(partnerId: string, kind: IntegrationKind): Promise<boolean> {
    const [, count] = (await this.manager.query(
      `DELETE FROM "partner_integrations" WHERE "partner_id" = $1 AND "kind" = $2`,
      [partnerId, kind],
    )) as [unknown, number];
    return count > 0;
  }
}

/**
 * A scalar subquery: every integration of the partner `partnerId` (an SQL expression) as one JSON
 * array in `list`'s order, null when it has none; for the join that reads them with a batch's
 * numbers (composition/dialled-numbers.reader.ts), which integrationsFromJson reads back.
 */
export function integrationsJsonOf(partnerId: string): string {
  return `(SELECT json_agg(json_build_object('id', i."id"::text, 'kind', i."kind", 'settings', i."settings",
                                            'secrets', i."secrets", 'modified', i."modified") ORDER BY i."kind")
             FROM "partner_integrations" i WHERE i."partner_id" = ${partnerId})`;
}

/** What integrationsFromJson's subquery answered, each integration as `list` answers it. */
export function integrationsFromJson(aggregated: unknown): StoredIntegration[] {
  if (aggregated === null) return [];
  return (aggregated as Row[]).map((row) =>
    integrationFromRow({ ...row, modified: new Date(row.modified as string) }),
  );
}

/**
 * A `partner_integrations` row (`id` as text, `kind`, `settings`, `secrets`, `modified`) as `find`
 * answers it; also for a claim that reads the integration with its conversions (conversions/).
 */
export function integrationFromRow(row: Row): StoredIntegration {
  const settings = row.settings as Record<string, unknown>;
  const secrets = row.secrets as Record<string, string>;
  const modified = row.modified as Date;
  const id = row.id as string;
  if (row.kind === 'ga4')
    return {
      id,
      kind: 'ga4',
      paused: settings.paused === true,
      measurementId: settings.measurementId as string,
      secrets: { apiSecret: secrets.apiSecret! },
      modified,
    };
  return {
    id,
    kind: 'google_ads',
    paused: settings.paused === true,
    customerId: settings.customerId as string,
    loginCustomerId: (settings.loginCustomerId as string | null) ?? null,
    conversionActionId: settings.conversionActionId as string,
    outcomeConversionActionId: (settings.outcomeConversionActionId as string | null) ?? null,
    callMinDuration: settings.callMinDuration as number,
    outcomeStatuses: settings.outcomeStatuses as OutcomeStatus[],
    enhancedConversions: settings.enhancedConversions === true,
    oauthClientId: settings.oauthClientId as string,
    secrets: {
      oauthClientSecret: secrets.oauthClientSecret!,
      refreshToken: secrets.refreshToken!,
      developerToken: secrets.developerToken!,
    },
    modified,
  };
}
