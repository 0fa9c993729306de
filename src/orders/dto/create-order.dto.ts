import {
  IsInt,
  IsNotEmpty,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { JSONSchema } from '@nestops/operations';
import { INTEGER_COLUMN_MAX } from '../order.entity';

export class CreateOrderDto {
  @JSONSchema({ description: 'What is ordered, as the order shows it.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @JSONSchema({ description: 'How many: a whole number, at least 1.' })
  @IsInt()
  @Min(1)
  @Max(INTEGER_COLUMN_MAX)
  amount: number;
}
