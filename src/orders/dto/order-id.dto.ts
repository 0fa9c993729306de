import { IsInt, Min } from 'class-validator';

/**
 * Any positive integer: an id beyond the id column's range names no order,
 * so it is answered as not found (`BUSINESS_NOTFOUND_001`), not as invalid.
 */
export class OrderIdDto {
  @IsInt()
  @Min(1)
  id: number;
}
