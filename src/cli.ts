// First: the compile cache covers what the imports below load.
import './compile-cache';
import { runCli } from '@nestops/mcp';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';

/**
 * The sample's command line: `operations`, `invoke <operation-id> [json]`
 * and `mcp` (the stdio MCP server), on the same database as `npm start`,
 * with the setup `main.ts` applies (`src/app.setup.ts`). Built to
 * `dist/src/cli.js`, which an MCP client starts with `node`.
 */
void runCli(AppModule, { name: 'order-desk', setup: setupApp });
