import { Module } from '@nestjs/common';
import { NotesService } from './notes.service.js';

@Module({ providers: [NotesService] })
export class NotesModule {}
