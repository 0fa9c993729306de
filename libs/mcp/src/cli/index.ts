/**
 * `@nestops/mcp/cli`: `runCli`, the command line of a Nest app that imports
 * `McpModule`, from an entry point that loads nothing of Nest or of the rest
 * of the library until a command boots the app.
 *
 * @packageDocumentation
 */

export { runCli } from './mcp-cli.js';
export { CLI_EXIT } from './cli-exit.js';
export type {
  McpCliOptions,
  McpCliServerOptions,
} from './mcp-cli-options.interface.js';
export type { McpServerFeature } from '../protocol/greeting.js';
