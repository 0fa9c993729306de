import { runCli } from '@nestops/mcp';
import { AppModule } from './app.module';

/**
 * The sample's command line: `operations`, `invoke <operation-id> [json]`
 * and `mcp` (the stdio MCP server), on the same database as `npm start`.
 * Built to `dist/src/cli.js`, which an MCP client starts with `node`.
 */
void runCli(AppModule, { name: 'order-desk' });
