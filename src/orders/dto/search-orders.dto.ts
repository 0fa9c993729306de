import {
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { INTEGER_COLUMN_MAX } from '../order.entity';
import { ListOrdersDto } from './list-orders.dto';

export enum SearchOrder {
  Oldest = 'oldest',
  Newest = 'newest',
}

/** A page of the matching orders; `limit` and `cursor` as for `orders.list`. */
export class SearchOrdersDto extends ListOrdersDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  nameContains?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INTEGER_COLUMN_MAX)
  minAmount?: number;

  @IsOptional()
  @IsEnum(SearchOrder)
  order?: SearchOrder;
}
