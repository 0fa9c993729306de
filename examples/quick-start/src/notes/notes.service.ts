import { Injectable } from '@nestjs/common';
import { Operation, type InvocationContext } from '@nestops/operations';
import type { User } from '../api-key.guard.js';
import { CreateNoteDto } from './create-note.dto.js';
import { NoteDto, NoteListDto } from './note.dto.js';

@Injectable()
export class NotesService {
  private readonly notes: NoteDto[] = [];

  @Operation({
    id: 'notes.create',
    title: 'Add a note',
    description: 'Adds a note to the shared notebook and returns it.',
    permission: 'notes.write',
    output: NoteDto,
  })
  create(input: CreateNoteDto, context: InvocationContext): NoteDto {
    const author = (context.principal as User).id;
    const note = { id: this.notes.length + 1, text: input.text, author };
    this.notes.push(note);
    return note;
  }

  @Operation({
    id: 'notes.list',
    title: 'List notes',
    description: 'Lists every note of the shared notebook, oldest first.',
    permission: 'notes.read',
    output: NoteListDto,
  })
  list(): NoteListDto {
    return { items: this.notes };
  }
}
