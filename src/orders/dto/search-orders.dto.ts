import {
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

export enum SearchOrder {
  Oldest = 'oldest',
  Newest = 'newest',
}

export class SearchOrdersDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  nameContains?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  minAmount?: number;

  @IsOptional()
  @IsEnum(SearchOrder)
  order?: SearchOrder;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
