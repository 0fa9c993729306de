import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The `orders` table (src/orders/order.entity.ts) and its tenant index. */
export class CreateOrders1764489600000 implements MigrationInterface {
  name = 'CreateOrders1764489600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(
        `CREATE TABLE "orders" ("id" SERIAL NOT NULL, "tenantId" character varying(128) NOT NULL, "name" character varying(200) NOT NULL, "amount" integer NOT NULL, "createdAt" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`,
      );
    } else {
      await queryRunner.query(
        `CREATE TABLE "orders" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "tenantId" varchar(128) NOT NULL, "name" varchar(200) NOT NULL, "amount" integer NOT NULL, "createdAt" datetime NOT NULL DEFAULT (datetime('now')))`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX "IDX_208a358e9fe8abe6e1d8245980" ON "orders" ("tenantId")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_208a358e9fe8abe6e1d8245980"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
