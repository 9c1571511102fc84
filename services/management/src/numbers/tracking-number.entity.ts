import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

export const NUMBER_KINDS = ['pool', 'static'] as const;
export type NumberKind = (typeof NUMBER_KINDS)[number];

// A number belongs to at most one partner in the whole system (docs/redis-keys.md: the global number index),
// so e164 is unique across partners, not per partner.
@Entity({ name: 'tracking_numbers' })
@Index('UQ_tracking_numbers_e164', ['e164'], { unique: true })
@Index('IDX_tracking_numbers_partner_kind_free', ['partnerId', 'kind', 'freeSince'])
@Check('CHK_tracking_numbers_kind', `"kind" IN ('pool', 'static')`)
export class TrackingNumberEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_tracking_numbers',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_tracking_numbers_partner' })
  partner?: PartnerEntity;

  @Column({ type: 'varchar', length: 16 })
  e164!: string;

  @Column({ type: 'text' })
  kind!: NumberKind;

  @Column({ name: 'added_at', type: 'timestamptz' })
  addedAt!: Date;

  /** A closed source's number is not handed out again before this instant. */
  @Column({ name: 'held_until', type: 'timestamptz', nullable: true })
  heldUntil!: Date | null;

  /**
   * Static numbers: since when the number is free (null while a source uses it); the oldest is
   * handed out first. For a held-back number it is the end of the hold-back.
   */
  @Column({ name: 'free_since', type: 'timestamptz', nullable: true })
  freeSince!: Date | null;
}
