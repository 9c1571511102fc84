import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * A number the partner released at its carrier: it cannot come back into that partner's inventory
 * before `until` (docs/carrier-numbers.md, Quarantine). Another partner is not held back.
 */
@Entity({ name: 'number_quarantines' })
export class NumberQuarantineEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_number_quarantines' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_number_quarantines_partner' })
  partner?: PartnerEntity;

  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'PK_number_quarantines' })
  e164!: string;

  @Column({ name: 'released_at', type: 'timestamptz' })
  releasedAt!: Date;

  @Column({ type: 'timestamptz' })
  until!: Date;
}
