import { IsDateString, IsInt, IsString, Max, Min } from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { INTEGER_COLUMN_MAX, type Order } from '../order.entity';

export class OrderDto {
  @IsInt()
  id: number;

  @JSONSchema({ description: 'The tenant the order belongs to.' })
  @IsString()
  tenant: string;

  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  @Max(INTEGER_COLUMN_MAX)
  amount: number;

  @JSONSchema({ description: 'When the order was created (ISO 8601, UTC).' })
  @IsDateString()
  createdAt: string;

  static from(order: Order): OrderDto {
    return Object.assign(new OrderDto(), {
      id: order.id,
      tenant: order.tenantId,
      name: order.name,
      amount: order.amount,
      createdAt: new Date(order.createdAt).toISOString(),
    });
  }
}
