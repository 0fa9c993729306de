import { Type } from 'class-transformer';
import { IsArray, IsInt, IsString, ValidateNested } from 'class-validator';

export class NoteDto {
  @IsInt()
  id: number;

  @IsString()
  text: string;

  @IsString()
  author: string;
}

export class NoteListDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => NoteDto)
  items: NoteDto[];
}
