import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pools that size themselves (docs/pool-sizing.md): a pool's own session lifetime, hold-back and
 * autoscaling policy, and the audit of every evaluation that changed the pool or failed.
 */
export class PoolsThatSizeThemselves1797000000200 implements MigrationInterface {
  name = 'PoolsThatSizeThemselves1797000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "number_pool_settings" (
         "partner_id" bigint NOT NULL,
         "session_lifetime_seconds" integer,
         "hold_back_seconds" integer,
         "autoscaling" boolean NOT NULL DEFAULT false,
         "min_size" integer NOT NULL DEFAULT 0,
         "max_size" integer,
         "target_overflow" numeric(5,4),
         "max_monthly_cost" numeric(10,2),
         "number_monthly_price" numeric(12,4),
         "country" character varying(2),
         "area_code" character varying(6),
         "contains" character varying(16),
         "last_evaluated_at" TIMESTAMP WITH TIME ZONE,
         "modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
         CONSTRAINT "PK_number_pool_settings" PRIMARY KEY ("partner_id"),
         CONSTRAINT "FK_number_pool_settings_partner" FOREIGN KEY ("partner_id")
           REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
       )`,
    );
    await queryRunner.query(
      `CREATE TABLE "pool_resizes" (
         "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         "partner_id" bigint NOT NULL,
         "at" TIMESTAMP WITH TIME ZONE NOT NULL,
         "trigger" character varying(16) NOT NULL,
         "outcome" character varying(16) NOT NULL,
         "from_size" integer NOT NULL,
         "to_size" integer NOT NULL,
         "added" text array NOT NULL DEFAULT '{}',
         "released" text array NOT NULL DEFAULT '{}',
         "reason" character varying(500) NOT NULL,
         "error_code" character varying(32),
         "error" character varying(1000),
         "plan" json NOT NULL,
         CONSTRAINT "PK_pool_resizes" PRIMARY KEY ("id"),
         CONSTRAINT "CHK_pool_resizes_outcome" CHECK ("outcome" IN ('grew', 'shrank', 'unchanged', 'failed'))
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_pool_resizes_partner_at" ON "pool_resizes" ("partner_id", "at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pool_resizes"`);
    await queryRunner.query(`DROP TABLE "number_pool_settings"`);
  }
}
