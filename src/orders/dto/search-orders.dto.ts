import {
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { INTEGER_COLUMN_MAX } from '../order.entity';
import { ListOrdersDto } from './list-orders.dto';

export enum SearchOrder {
  Oldest = 'oldest',
  Newest = 'newest',
}

/** A page of the matching orders; `limit` and `cursor` as for `orders.list`. */
export class SearchOrdersDto extends ListOrdersDto {
  @JSONSchema({
    description:
      'Only orders whose name contains this text, in any letter case.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  nameContains?: string;

  @JSONSchema({ description: 'Only orders of at least this amount.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INTEGER_COLUMN_MAX)
  minAmount?: number;

  @JSONSchema({ description: 'oldest (the default) or newest first.' })
  @IsOptional()
  @IsEnum(SearchOrder)
  order?: SearchOrder;
}
