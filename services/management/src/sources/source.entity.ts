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
import type { SpamPolicy } from '@trackline/domain';
import type { CustomFieldValues } from '../customers/customer.entity';
import { CampaignEntity } from '../campaigns/campaign.entity';
import { CustomerEntity } from '../customers/customer.entity';
import { VoicemailGreetingEntity } from '../greetings/voicemail-greeting.entity';
import { TrackingNumberEntity } from '../numbers/tracking-number.entity';
import { PartnerEntity, type StoredJson } from '../partners/partner.entity';

export const SOURCE_STATUSES = ['active', 'closed'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** One alt-number rule as stored: the domain's AltNumberRule in snake case. */
export interface StoredAltNumber {
  phonenr: string;
  weekdays: string[];
  from_minute: number;
  to_minute: number;
  alt_key: string;
}

// Lengths mirror the API limits (sources.dto.ts).
@Entity({ name: 'sources' })
@Index('IDX_sources_partner_customer', ['partnerId', 'customerId'])
@Index('IDX_sources_destnr', ['destnr'])
@Index('IDX_sources_campaign', ['campaignId'])
@Index('IDX_sources_vm_greeting', ['vmGreetingId'])
// A number answers for one open source at a time; the allocator's row lock is the first guard, this the last.
@Index('UQ_sources_open_destnr', ['destnr'], { unique: true, where: `"status" = 'active'` })
@Check('CHK_sources_status', `"status" IN ('active', 'closed')`)
@Check('CHK_sources_spam_policy', `"spam_policy" IN ('allow', 'challenge', 'voicemail', 'reject')`)
@Check(
  'CHK_sources_spam_threshold',
  `"spam_threshold" IS NULL OR ("spam_threshold" BETWEEN 0 AND 100 AND "spam_policy" IS NOT NULL)`,
)
export class SourceEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_sources',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_sources_partner' })
  partner?: PartnerEntity;

  @Column({ name: 'customer_id', type: 'bigint' })
  customerId!: string;

  // Deleting a customer (only without open sources) deletes its closed ones: docs/partner-api.md, Deleting.
  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'FK_sources_customer' })
  customer?: CustomerEntity;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  media!: string | null;

  @Column({ type: 'varchar', length: 16 })
  phonenr!: string;

  @Column({ type: 'varchar', length: 16 })
  destnr!: string;

  @ManyToOne(() => TrackingNumberEntity, { onDelete: 'RESTRICT', nullable: false })
  @JoinColumn({
    name: 'destnr',
    referencedColumnName: 'e164',
    foreignKeyConstraintName: 'FK_sources_destnr',
  })
  trackingNumber?: TrackingNumberEntity;

  @Column({ name: 'campaign_id', type: 'bigint', nullable: true })
  campaignId!: string | null;

  // NO ACTION (checked at the end of the statement) rather than RESTRICT: deleting a customer
  // cascades to its campaigns, greetings and sources together; alone, a used one is still refused.
  @ManyToOne(() => CampaignEntity, { onDelete: 'NO ACTION', nullable: true })
  @JoinColumn({ name: 'campaign_id', foreignKeyConstraintName: 'FK_sources_campaign' })
  campaign?: CampaignEntity | null;

  @Column({ name: 'publisher_id', type: 'varchar', length: 100, nullable: true })
  publisherId!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  smsnumber!: string | null;

  @Column({ type: 'text', default: 'active' })
  status!: SourceStatus;

  @Column({ name: 'class', type: 'varchar', length: 45, default: 'standard' })
  sourceClass!: string;

  /** The seed's `timestamp`: when the source became active. */
  @Column({ name: 'activated_at', type: 'timestamptz' })
  activatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  expire!: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'vm_greeting_id', type: 'bigint', nullable: true })
  vmGreetingId!: string | null;

  @ManyToOne(() => VoicemailGreetingEntity, { onDelete: 'NO ACTION', nullable: true })
  @JoinColumn({ name: 'vm_greeting_id', foreignKeyConstraintName: 'FK_sources_vm_greeting' })
  vmGreeting?: VoicemailGreetingEntity | null;

  /** The source's own spam policy (docs/spam.md, Per source); null: the partner's applies. */
  @Column({ name: 'spam_policy', type: 'varchar', length: 16, nullable: true })
  spamPolicy!: SpamPolicy | null;

  /** Null: the partner's threshold (also while the source has a policy of its own). */
  @Column({ name: 'spam_threshold', type: 'smallint', nullable: true })
  spamThreshold!: number | null;

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

  @Column({ name: 'alt_numbers', type: 'jsonb', default: () => "'[]'" })
  altNumbers!: StoredAltNumber[];

  @Column({ name: 'custom_fields', type: 'jsonb', default: () => "'{}'" })
  customFields!: CustomFieldValues;

  /** The source's own call-intelligence settings, each overriding its partner's (docs/call-intelligence.md); null: none. */
  @Column({ name: 'call_intelligence', type: 'jsonb', nullable: true })
  callIntelligence!: StoredJson | null;

  /** The source's own classification rules, replacing its partner's; null: the partner's apply. */
  @Column({ name: 'classification_rules', type: 'jsonb', nullable: true })
  classificationRules!: StoredJson | null;

  @CreateDateColumn({ name: 'created', type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ name: 'modified', type: 'timestamptz' })
  modified!: Date;
}
