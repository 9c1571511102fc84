import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { CustomerEntity } from '../customers/customer.entity';
import { PartnerEntity } from '../partners/partner.entity';

/** Name of the partial unique index: a PIN is reserved only while its greeting awaits a recording. */
export const UNRECORDED_PIN_INDEX = 'UQ_voicemail_greetings_unrecorded_pin';

@Entity({ name: 'voicemail_greetings' })
@Index(UNRECORDED_PIN_INDEX, ['recordPin'], { unique: true, where: '"sounddata" IS NULL' })
@Index('IDX_voicemail_greetings_customer', ['customerId'])
export class VoicemailGreetingEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_voicemail_greetings',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_voicemail_greetings_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'customer_id', type: 'bigint' })
  customerId!: string;

  // A customer can only be deleted without open sources; its greetings go with it.
  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'FK_voicemail_greetings_customer' })
  customer?: CustomerEntity;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'record_pin', type: 'char', length: 6 })
  recordPin!: string;

  /** The recorded audio; null until the switch delivers it. */
  @Column({ type: 'bytea', nullable: true, select: false })
  sounddata!: Buffer | null;

  /** Bytes of sounddata, kept beside it so lists never read the audio. */
  @Column({ type: 'integer', nullable: true })
  datalength!: number | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ name: 'recorded', type: 'timestamptz', nullable: true })
  recorded!: Date | null;
}
