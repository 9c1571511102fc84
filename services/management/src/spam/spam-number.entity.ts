import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A caller on a partner's block or allow list (docs/spam.md), written only by `spam-lists.store.ts`.
 * One row per partner and number: a number is on one list at a time.
 */
@Entity({ name: 'spam_numbers' })
@Check('CHK_spam_numbers_list', `"list" IN ('block', 'allow')`)
export class SpamNumberEntity {
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', primaryKeyConstraintName: 'PK_spam_numbers' })
  partnerId!: string;

  /** E.164, read by the one number reader. */
  @PrimaryColumn({ type: 'varchar', length: 20, primaryKeyConstraintName: 'PK_spam_numbers' })
  number!: string;

  @Column({ type: 'varchar', length: 8 })
  list!: 'block' | 'allow';

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
