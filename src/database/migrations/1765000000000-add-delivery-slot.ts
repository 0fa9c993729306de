import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The delivery slot an order is scheduled for (`orders.schedule-delivery`). */
export class AddDeliverySlot1765000000000 implements MigrationInterface {
  name = 'AddDeliverySlot1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      queryRunner.connection.options.type === 'postgres'
        ? `ALTER TABLE "orders" ADD "deliverySlot" character varying(16)`
        : `ALTER TABLE "orders" ADD COLUMN "deliverySlot" varchar(16)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "deliverySlot"`);
  }
}
