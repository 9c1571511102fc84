import type { DataSource } from 'typeorm';

/**
 * The due time of each daily job, one row per job: the replica whose claim moves it forward runs
 * the job, every other replica finds it not due (a row lock orders concurrent claims). Works the same
 * on the embedded Postgres, where advisory locks do not exclude connections.
 */
export class DataLifecycleRunsStore {
  constructor(private readonly dataSource: DataSource) {}

  /** True when the job was due at `now` and this caller now owns the run; the next one is due at `next`. */
  async claim(job: string, now: Date, next: Date): Promise<boolean> {
    await this.dataSource.query(
      `INSERT INTO "data_lifecycle_runs" ("job", "next_run_at") VALUES ($1, $2) ON CONFLICT ("job") DO NOTHING`,
      [job, now],
    );
    const claimed: unknown[] = await this.dataSource.query(
      `UPDATE "data_lifecycle_runs" SET "next_run_at" = $3, "last_started_at" = $2
        WHERE "job" = $1 AND "next_run_at" <= $2 RETURNING "job"`,
      [job, now, next],
    );
    return (claimed[0] as unknown[]).length > 0;
  }

  async finished(job: string, at: Date, result: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `UPDATE "data_lifecycle_runs" SET "last_finished_at" = $2, "last_result" = $3::jsonb WHERE "job" = $1`,
      [job, at, JSON.stringify(result)],
    );
  }
}
