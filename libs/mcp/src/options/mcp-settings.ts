import type { CanActivate, Type } from '@nestjs/common';
import type {
  InputLimits,
  PermissionsOf,
  TenantOf,
} from '@nestops/operations/internal';
import type { McpOAuthSettings } from '../auth/oauth-options.resolver.js';
import type { McpTelemetrySettings } from '../telemetry/telemetry-options.resolver.js';
import type { McpRedisSettings } from '../protocol/redis-answer-relay.js';
import type { McpAskingSettings } from '../asking/asking-options.resolver.js';
import type { McpTasksSettings } from '../tasks/tasks-options.resolver.js';
import type { McpResumptionSettings } from './resumption-options.resolver.js';

/** The injection token of the resolved module options (`McpSettings`). */
export const MCP_SETTINGS = Symbol('MCP_SETTINGS');

/** The module options with every default applied. */
export interface McpSettings {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly instructions?: string;
  readonly path: string;
  readonly tools: Readonly<Record<string, string>>;
  readonly allowedOrigins?: readonly string[];
  readonly maxBodySize: number;
  readonly timeout?: number;
  readonly authGuard?: Type<CanActivate>;
  /** Outside OAuth: the scheme of the challenge a POST without credentials gets; undefined: anonymous callers are served. */
  readonly requireToken?: { readonly scheme: string };
  /** The app's reading of a principal's permissions; undefined: its `permissions`. */
  readonly permissionsOf?: PermissionsOf;
  /** The app's tenant of a call's headers; undefined: calls have none. */
  readonly tenantOf?: TenantOf;
  readonly inputLimits: InputLimits;
  /** `ttlMs` of cacheable 2026 results; undefined: `DEFAULT_CACHE_TTL`. */
  readonly cacheTtl?: number;
  /** The endpoint as an OAuth protected resource; undefined: not. */
  readonly oauth?: McpOAuthSettings;
  /** Whether `tools/list` shows each caller only the tools its permissions reach. */
  readonly toolListPerCaller: boolean;
  /** What calls leave behind: the audit sink, what spans carry. */
  readonly telemetry: McpTelemetrySettings;
  /** Where answers to another instance's requests go; undefined: nowhere. */
  readonly redis?: McpRedisSettings;
  /** What calls may ask their client, and how 2026's round trips are sealed. */
  readonly asking: McpAskingSettings;
  /** How operations run as tasks. */
  readonly tasks: McpTasksSettings;
  /** How 2025 SSE answers are resumed; undefined: they are not. */
  readonly resumption?: McpResumptionSettings;
}

/**
 * The server's name and version where the options leave them out: the
 * host's name (`runCli`'s `name`), the app's `package.json`.
 */
export interface McpServerDefaults {
  readonly serverName?: string;
  readonly serverVersion?: string;
}
