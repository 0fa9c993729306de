import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { IsOrderCursor } from './order-cursor';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 100;

/** One page of orders: up to `limit` of them, after `cursor`. */
export class ListOrdersDto {
  @JSONSchema({ description: 'Orders per page, 1 to 100; 50 when absent.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @JSONSchema({
    description:
      'The nextCursor of the previous page; leave it out for the first page.',
  })
  @IsOptional()
  @IsString()
  @IsOrderCursor()
  cursor?: string;
}

/** `GET /orders?limit=&cursor=`: a query string carries the limit as text. */
export class ListOrdersQueryDto extends ListOrdersDto {
  @Type(() => Number)
  declare limit?: number;
}
