/**
 * The parts of `@nestops/operations/internal` the commands use, loaded with the
 * command that boots the app (`await import('./operations-api.js')`), not
 * with the command line. A static import here resolves, as every import
 * of this CommonJS build does, to the package's CommonJS entry, whose
 * types exist as soon as its project is built: a dynamic
 * `import('@nestops/operations')` would resolve to its ESM entry, whose
 * declarations are made only after the TypeScript build.
 */
export {
  OperationInvoker,
  OperationRefusedError,
  OperationRegistry,
} from '@nestops/operations/internal';
export { McpResult } from '../../content/mcp-result.js';
export { contentLine } from '../../content/content-line.js';
