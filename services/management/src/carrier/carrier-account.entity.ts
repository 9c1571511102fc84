import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * A partner's account at its carrier (docs/carrier-numbers.md, Credentials): what the API shows,
 * and the auth token it never shows back, kept apart in `secrets` as integration secrets are.
 */
@Entity({ name: 'carrier_accounts' })
export class CarrierAccountEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_carrier_accounts' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_carrier_accounts_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'account_sid', type: 'varchar', length: 34 })
  accountSid!: string;

  @Column({ name: 'base_url', type: 'varchar', length: 500 })
  baseUrl!: string;

  @Column({ type: 'jsonb' })
  secrets!: Record<string, string>;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'modified', type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
