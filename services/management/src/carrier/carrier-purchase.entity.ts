import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/**
 * One number bought at the carrier, written before the purchase is asked for, so a crash between
 * the carrier's answer and the inventory insert leaves a trace the reconciler finishes from
 * (docs/carrier-numbers.md, Idempotent buying). `intent`: asked for, answer unknown; `bought`: the
 * carrier answered with `sid`; `done`: in the inventory; `abandoned`: the carrier does not have it.
 */
@Entity({ name: 'carrier_purchases' })
@Index('UQ_carrier_purchases_friendly_name', ['friendlyName'], { unique: true })
@Index('IDX_carrier_purchases_partner_state', ['partnerId', 'state'])
@Check('CHK_carrier_purchases_state', `"state" IN ('intent', 'bought', 'done', 'abandoned')`)
@Check('CHK_carrier_purchases_kind', `"kind" IN ('pool', 'static')`)
export class CarrierPurchaseEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_carrier_purchases',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_carrier_purchases_partner' })
  partner?: PartnerEntity;

  @Column({ type: 'varchar', length: 16 })
  e164!: string;

  @Column({ type: 'text' })
  kind!: string;

  /** The FriendlyName the purchase set at the carrier: the purchase's own key. */
  @Column({ name: 'friendly_name', type: 'varchar', length: 64 })
  friendlyName!: string;

  @Column({ type: 'varchar', length: 34, nullable: true })
  sid!: string | null;

  @Column({ type: 'text' })
  state!: string;

  @Column({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}
