import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { CreateOrderDto } from './create-order.dto';

/** The most orders one import creates. */
export const MAX_IMPORTED_ORDERS = 10_000;

export class ImportOrdersDto {
  @JSONSchema({
    description: `The orders to create, 1 to ${MAX_IMPORTED_ORDERS}, each with a name and an amount.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORTED_ORDERS)
  @ValidateNested({ each: true })
  @Type(() => CreateOrderDto)
  orders: CreateOrderDto[];
}

export class ImportedOrdersDto {
  @IsInt()
  created: number;

  @IsArray()
  @IsInt({ each: true })
  ids: number[];
}
