import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
} from 'typeorm';

/**
 * The largest value the `integer` columns hold: PostgreSQL's `integer` is
 * 32 bits (`serial` for the id). Inputs are bounded to it, so a larger number
 * is refused rather than failing in the database (PostgreSQL) or being stored
 * as a rounded REAL (SQLite).
 */
export const INTEGER_COLUMN_MAX = 2_147_483_647;

@Entity('orders')
export class Order {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column({ type: 'varchar', length: 128 })
  tenantId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'integer' })
  amount: number;

  @CreateDateColumn()
  createdAt: Date;

  /** The delivery slot it is scheduled for; null until it is. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  deliverySlot: string | null;
}
