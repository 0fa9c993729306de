import {
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { JSONSchema } from '@nestops/operations';

/** The arguments of the `draft-restock-order` prompt. */
export class DraftRestockDto {
  @JSONSchema({ description: 'The product to restock, as orders name it.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  product: string;

  @JSONSchema({ description: 'How soon: normal or urgent.' })
  @IsOptional()
  @IsIn(['normal', 'urgent'])
  urgency?: 'normal' | 'urgent';
}
