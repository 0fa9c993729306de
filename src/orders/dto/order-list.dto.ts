import { Type } from 'class-transformer';
import { IsArray, ValidateNested } from 'class-validator';
import { OrderDto } from './order.dto';

export class OrderListDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OrderDto)
  items: OrderDto[];
}
