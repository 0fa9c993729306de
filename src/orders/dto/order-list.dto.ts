import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { OrderDto } from './order.dto';

export class OrderListDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OrderDto)
  items: OrderDto[];

  @JSONSchema({
    description:
      'Present when more orders follow: pass it as cursor for the next page.',
  })
  @IsOptional()
  @IsString()
  nextCursor?: string;
}
