import { JSONSchema } from '@nestops/operations';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class CreateNoteDto {
  @JSONSchema({ description: 'The text of the note, up to 500 characters.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  text: string;
}
