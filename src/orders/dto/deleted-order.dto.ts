import { IsBoolean, IsInt } from 'class-validator';

export class DeletedOrderDto {
  @IsInt()
  id: number;

  @IsBoolean()
  deleted: boolean;
}
