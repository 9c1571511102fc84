import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  Unique,
} from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * A partner's connection to Google Ads or GA4 (docs/conversions.md, Set-up): the settings the API
 * shows, and the secrets it never shows back (only masked).
 */
@Entity({ name: 'partner_integrations' })
@Check('CHK_partner_integrations_kind', `"kind" IN ('google_ads', 'ga4')`)
@Unique('UQ_partner_integrations_id', ['id'])
export class PartnerIntegrationEntity {
  /** The lane its conversions wait in (db/leased-queue.ts). */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  id!: string;

  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_partner_integrations' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_partner_integrations_partner' })
  partner?: PartnerEntity;

  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'PK_partner_integrations' })
  kind!: string;

  @Column({ type: 'jsonb' })
  settings!: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  secrets!: Record<string, string>;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'modified', type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
