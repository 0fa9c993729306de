import { IsInt, IsString } from 'class-validator';
import { JSONSchema } from '@nestops/operations';

/** A product description the client's model drafted for an order. */
export class OrderDescriptionDto {
  @IsInt()
  id: number;

  @JSONSchema({ description: 'The product, as the order names it.' })
  @IsString()
  name: string;

  @JSONSchema({ description: "The description the client's model drafted." })
  @IsString()
  description: string;

  @JSONSchema({ description: 'The model that drafted it, as the client says.' })
  @IsString()
  model: string;
}
