import { runCli } from '@nestops/mcp/cli';
import { AppModule } from './app.module.js';
import { setupApp } from './app.setup.js';

void runCli(AppModule, { name: 'notes', setup: setupApp });
