import { IsInt, Min } from 'class-validator';

export class OrderIdDto {
  @IsInt()
  @Min(1)
  id: number;
}
