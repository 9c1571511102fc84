import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

// Lengths mirror the API limits (webhooks.dto.ts), so a value that slipped past the edge still
// cannot be stored.
@Entity({ name: 'webhooks' })
@Check('CHK_webhooks_state', `"state" IN ('0', '1', '2')`)
@Index('IX_webhooks_partner', ['partnerId'])
export class WebhookEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_webhooks',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_webhooks_partner' })
  partner?: PartnerEntity;

  @Column({ type: 'varchar', length: 2000 })
  url!: string;

  /** Event types in catalogue order (docs/webhooks.md). */
  @Column({ type: 'text', array: true })
  events!: string[];

  /** `whsec_` + base64 of the signing key: the Standard Webhooks serialisation, kept to sign with. */
  @Column({ type: 'varchar', length: 100 })
  secret!: string;

  /** '0' active, '1' paused, '2' disabled by Trackline after failing (docs/webhooks.md, Disabled endpoints). */
  @Column({ type: 'varchar', length: 1, default: '0' })
  state!: string;

  /** The first failed attempt since the last accepted one; null while the endpoint answers. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  /** When Trackline disabled it; null unless state is '2'. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}
