import { Column, Entity, PrimaryColumn } from 'typeorm';

/** When a daily job is next due; mirrors migration AddDataLifecycle (docs/operations.md, "Data lifecycle"). */
@Entity({ name: 'data_lifecycle_runs' })
export class DataLifecycleRunEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_data_lifecycle_runs' })
  job!: string;

  @Column({ name: 'next_run_at', type: 'timestamptz' })
  nextRunAt!: Date;

  @Column({ name: 'last_started_at', type: 'timestamptz', nullable: true })
  lastStartedAt!: Date | null;

  @Column({ name: 'last_finished_at', type: 'timestamptz', nullable: true })
  lastFinishedAt!: Date | null;

  @Column({ name: 'last_result', type: 'jsonb', nullable: true })
  lastResult!: Record<string, unknown> | null;
}
