// First: the compile cache covers what the imports below load.
import './compile-cache';
import { runCli } from '@nestops/mcp/cli';
import { appRoot } from './app-root';
import { MCP_SERVER } from './mcp.server';

/**
 * The sample's command line: `operations`, `invoke <operation-id> [json]`
 * and `mcp` (the stdio MCP server), on the same database as `npm start`,
 * with the setup `main.ts` applies (`src/app.setup.ts`). Built to
 * `dist/src/cli.js`, which an MCP client starts with `node`, from any folder.
 *
 * The app and its setup are loaded when a command boots the app: `mcp`
 * answers `initialize` and `server/discover` (from `MCP_SERVER`, which
 * McpModule's options also spread) before that, within a few tens of
 * milliseconds of Node's own start.
 */
void runCli(() => import('./app.module.js').then((m) => m.AppModule), {
  name: 'order-desk',
  // Relative paths (SQLITE_PATH, var/) resolve against the repository, not
  // the folder an MCP client starts the process from.
  cwd: appRoot(),
  server: MCP_SERVER,
  setup: (app) => import('./app.setup.js').then((m) => m.setupApp(app)),
});
