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
import { CustomerEntity } from '../customers/customer.entity';
import { VoicemailGreetingEntity } from '../greetings/voicemail-greeting.entity';
import { PartnerEntity } from '../partners/partner.entity';
import { PricingModelEntity } from '../pricing-models/pricing-model.entity';

// Lengths mirror the API limits (campaigns.dto.ts) so a value that slipped past the edge still
// cannot be stored.
@Entity({ name: 'campaigns' })
@Index('IX_campaigns_partner_customer', ['partnerId', 'customerId'])
@Index('IX_campaigns_pricing_model', ['pricingModelId'])
@Index('IX_campaigns_vm_greeting', ['vmGreetingId'])
@Check('CHK_campaigns_state', `"state" IN ('0', '1', '2')`)
export class CampaignEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_campaigns',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_campaigns_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'customer_id', type: 'bigint' })
  customerId!: string;

  // Deleting a customer (only without open sources) deletes its campaigns: docs/partner-api.md, Deleting.
  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'FK_campaigns_customer' })
  customer?: CustomerEntity;

  @Column({ name: 'pricing_model_id', type: 'uuid' })
  pricingModelId!: string;

  // RESTRICT backs the service's 403: a pricing model in use cannot be deleted.
  @ManyToOne(() => PricingModelEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'pricing_model_id', foreignKeyConstraintName: 'FK_campaigns_pricing_model' })
  pricingModel?: PricingModelEntity;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'partner_campaign_id', type: 'varchar', length: 45, nullable: true })
  partnerCampaignId!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  email!: string | null;

  /** E.164: "+" and at most 15 digits. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  smsnumber!: string | null;

  @Column({ name: 'vm_greeting_id', type: 'bigint', nullable: true })
  vmGreetingId!: string | null;

  // RESTRICT backs the greetings feature's 403: a greeting in use cannot be deleted.
  @ManyToOne(() => VoicemailGreetingEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'vm_greeting_id', foreignKeyConstraintName: 'FK_campaigns_vm_greeting' })
  vmGreeting?: VoicemailGreetingEntity;

  @Column({ name: 'notify_on_missed_call', type: 'boolean', default: false })
  notifyOnMissedCall!: boolean;

  @Column({ name: 'notify_on_new_voicemail', type: 'boolean', default: false })
  notifyOnNewVoicemail!: boolean;

  @Column({ name: 'vm_divert_all', type: 'boolean', default: false })
  vmDivertAll!: boolean;

  @Column({ name: 'vm_divert_busy', type: 'boolean', default: false })
  vmDivertBusy!: boolean;

  @Column({ name: 'vm_divert_noanswer', type: 'boolean', default: false })
  vmDivertNoanswer!: boolean;

  @Column({ type: 'varchar', length: 1, default: '0' })
  state!: string;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  expire!: Date | null;

  @UpdateDateColumn({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}
