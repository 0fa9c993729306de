import { Module } from '@nestjs/common';
import { McpModule, type McpModuleOptions } from '@nestops/mcp';
import { ApiKeyGuard } from './api-key.guard.js';
import { NotesModule } from './notes/notes.module.js';

const mcpOptions: McpModuleOptions = {
  instructions: 'A shared notebook: list notes, add a note.',
  authGuard: ApiKeyGuard,
};

@Module({ imports: [McpModule.forRoot(mcpOptions), NotesModule] })
export class AppModule {}
