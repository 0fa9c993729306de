import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { McpModule, type McpModuleOptions } from '@nestops/mcp';
import { ApiKeyGuard } from './api-key.guard.js';
import { NotesModule } from './notes/notes.module.js';

const mcpOptions: McpModuleOptions = {
  instructions: 'A shared notebook: list notes, add a note.',
  authGuard: ApiKeyGuard,
};

@Module({
  imports: [McpModule.forRoot(mcpOptions), NotesModule],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
})
export class AppModule {}
