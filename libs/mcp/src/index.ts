/**
 * `@nestops/mcp`: publish a Nest app's `@Operation()` methods as Model
 * Context Protocol tools over Streamable HTTP (`McpModule`) and on stdio;
 * its command line is `runCli` of `@nestops/mcp/cli`.
 *
 * @packageDocumentation
 */

export { McpModule } from './mcp.module.js';
export { McpServerLifecycleModule } from './lifecycle/mcp-server-lifecycle.module.js';
export type { McpServerLifecycleOptions } from './lifecycle/lifecycle-options.js';
export type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
export type {
  McpAuditEvent,
  McpAuditSink,
  McpTelemetryOptions,
} from './interfaces/mcp-telemetry-options.interface.js';
export type { McpOAuthOptions } from './interfaces/mcp-oauth-options.interface.js';
export type { McpAskingOptions } from './interfaces/mcp-asking-options.interface.js';
export type { McpTasksOptions } from './interfaces/mcp-tasks-options.interface.js';
export type { McpResumptionOptions } from './interfaces/mcp-resumption-options.interface.js';
export type {
  McpReadContents,
  McpResource,
  McpResourceTemplate,
} from './resources/mcp-resource.interface.js';
export { McpJwtGuard } from './auth/mcp-jwt.guard.js';
export type { McpTokenPrincipal } from './auth/mcp-jwt.guard.js';
export { Prompt } from './prompts/prompt.decorator.js';
export type { PromptOptions } from './prompts/prompt.decorator.js';
export { PromptMessages } from './prompts/prompt-messages.js';
export type { PromptMessage } from './prompts/prompt-messages.js';
export type {
  McpPromptArgument,
  McpPromptEntry,
} from './prompts/mcp-prompt.catalogue.js';
export { Complete } from './completions/complete.decorator.js';
export { CompletionRequest } from './completions/completion-request.js';
export { McpResult } from './content/mcp-result.js';
export { McpContent, MCP_CONTENT_MAX_BYTES } from './content/mcp-content.js';
export type {
  McpAudioBlock,
  McpBinary,
  McpContentBlock,
  McpEmbeddedResourceBlock,
  McpImageBlock,
  McpResourceContents,
  McpResourceLink,
  McpResourceLinkBlock,
  McpTextBlock,
} from './content/mcp-content.js';
export { McpHeader } from './headers/mcp-header.decorator.js';
