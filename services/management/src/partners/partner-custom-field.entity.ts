import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { PartnerEntity } from './partner.entity';

export const CUSTOM_FIELD_ENTITIES = ['customer', 'source'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];

/** A custom field the operator defined for one partner's customers or sources (seed: "Conventions"). */
@Entity({ name: 'partner_custom_fields' })
@Unique('UQ_partner_custom_fields_partner_entity_field', ['partnerId', 'entity', 'field'])
@Check('CHK_partner_custom_fields_entity', `"entity" IN ('customer', 'source')`)
export class PartnerCustomFieldEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'PK_partner_custom_fields',
  })
  id!: string;

  @Column({ name: 'partner_id', type: 'bigint' })
  partnerId!: string;

  @ManyToOne(() => PartnerEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'partner_id', foreignKeyConstraintName: 'FK_partner_custom_fields_partner' })
  partner?: PartnerEntity;

  @Column({ type: 'text' })
  entity!: CustomFieldEntity;

  @Column({ type: 'text' })
  field!: string;
}
