import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from '@nestops/operations';

/** What a sales report adds up per: the day an order was created (UTC), or its name. */
export type ReportGrouping = 'day' | 'name';

const GROUPINGS: readonly ReportGrouping[] = ['day', 'name'];

/** The input of `orders.report`. */
export class ReportOrdersDto {
  @JSONSchema({
    description:
      'day (the default): one row per day the orders were created on (UTC, YYYY-MM-DD); name: one row per order name.',
  })
  @IsOptional()
  @IsIn(GROUPINGS)
  by?: ReportGrouping;
}

/** One row of a sales report: a day or a name, its orders and their amount. */
export class ReportRowDto {
  @JSONSchema({ description: 'The day (YYYY-MM-DD, UTC) or the name.' })
  @IsString()
  key: string;

  @JSONSchema({ description: 'How many orders.' })
  @IsInt()
  @Min(1)
  orders: number;

  @JSONSchema({ description: 'The sum of their amounts.' })
  @IsInt()
  @Min(1)
  amount: number;
}

/** A sales report over the orders of the caller's tenant. */
export class OrderReportDto {
  @JSONSchema({ description: 'What the rows are per: day or name.' })
  @IsIn(GROUPINGS)
  by: ReportGrouping;

  @JSONSchema({ description: 'How many orders the report read.' })
  @IsInt()
  @Min(0)
  orders: number;

  @JSONSchema({ description: 'The sum of their amounts.' })
  @IsInt()
  @Min(0)
  amount: number;

  @JSONSchema({ description: 'One row per day or name, in key order.' })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReportRowDto)
  rows: ReportRowDto[];
}
