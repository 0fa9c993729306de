import type { CanActivate, Type } from '@nestjs/common';
import { resolveAskingOptions } from '../asking/asking-options.resolver.js';
import { resolveTasksOptions } from '../tasks/tasks-options.resolver.js';
import { INPUT_LIMITS } from '@nestops/operations/internal';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpServerDefaults, McpSettings } from './mcp-settings.js';
import { DEFAULT_MAX_BODY_SIZE, DEFAULT_MCP_PATH } from '../mcp.constants.js';
import { greetingSettings } from './server-identity.js';
import { resolveOAuthOptions } from '../auth/oauth-options.resolver.js';
import { McpJwtGuard } from '../auth/mcp-jwt.guard.js';
import { resolveTelemetryOptions } from '../telemetry/telemetry-options.resolver.js';
import { resolveRedisOptions } from './redis-options.resolver.js';
import { resolveResumptionOptions } from './resumption-options.resolver.js';

/** A URL path as `path` takes it. */
const URL_PATH = /^\/[A-Za-z0-9._~/-]*$/;
/** The options McpServerLifecycleModule took over. */
const MOVED_TO_LIFECYCLE = [
  'shutdownDrainDelay',
  'shutdownGracePeriod',
  'readinessPath',
] as const;

/** Applies defaults, or throws a message naming the bad option. */
export function resolveMcpOptions(
  options: McpModuleOptions = {},
  defaults: McpServerDefaults = {},
): McpSettings {
  const problems: string[] = [];
  const text = (key: keyof McpModuleOptions) => {
    const value = options[key];
    if (
      value !== undefined &&
      (typeof value !== 'string' || value.trim() === '')
    ) {
      problems.push(`${key} must be a non-empty string`);
    }
  };
  text('serverName');
  text('serverVersion');
  if (
    options.instructions !== undefined &&
    typeof options.instructions !== 'string'
  ) {
    problems.push('instructions must be a string');
  }
  const path = options.path ?? DEFAULT_MCP_PATH;
  if (typeof path !== 'string' || !URL_PATH.test(path)) {
    problems.push(
      `path must be a URL path starting with '/' (got ${JSON.stringify(path)})`,
    );
  }
  const tools = options.tools === undefined ? {} : options.tools;
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    problems.push('tools must map operation ids to tool names');
  } else {
    for (const [id, name] of Object.entries(tools)) {
      if (typeof name !== 'string') {
        problems.push(`tools['${id}'] must be a string`);
      }
    }
  }
  const origins = options.allowedOrigins;
  if (
    origins !== undefined &&
    (!Array.isArray(origins) ||
      origins.some((origin) => typeof origin !== 'string'))
  ) {
    problems.push('allowedOrigins must be a list of origins');
  }
  const positive = (key: 'maxBodySize' | 'timeout', integer: boolean) => {
    const value = options[key];
    if (
      value !== undefined &&
      (typeof value !== 'number' ||
        !(value > 0) ||
        !Number.isFinite(value) ||
        (integer && !Number.isInteger(value)))
    ) {
      problems.push(
        `${key} must be a positive ${integer ? 'integer' : 'number'}`,
      );
    }
  };
  if (
    options.authGuard !== undefined &&
    typeof options.authGuard !== 'function'
  ) {
    problems.push('authGuard must be a guard class');
  }
  const limits = options.inputLimits ?? {};
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    problems.push('inputLimits must be an object of limits');
  } else {
    for (const [key, value] of Object.entries(limits)) {
      if (!Object.hasOwn(INPUT_LIMITS, key)) {
        problems.push(
          `inputLimits.${key} is not a limit (${Object.keys(INPUT_LIMITS).join(', ')})`,
        );
      } else if (!Number.isSafeInteger(value) || (value as number) < 1) {
        problems.push(`inputLimits.${key} must be a positive integer`);
      }
    }
  }
  positive('maxBodySize', true);
  positive('timeout', false);
  for (const key of MOVED_TO_LIFECYCLE) {
    if (Object.hasOwn(options, key)) {
      problems.push(
        `${key} is an option of McpServerLifecycleModule.forRoot() now (import it next to McpModule)`,
      );
    }
  }
  const ttl = options.cacheTtl;
  if (ttl !== undefined && (!Number.isSafeInteger(ttl) || ttl < 0)) {
    problems.push('cacheTtl must be a whole number of milliseconds, 0 or more');
  }
  const oauth = resolveOAuthOptions(options.oauth, problems);
  const authGuard = options.authGuard ?? (oauth?.jwt ? McpJwtGuard : undefined);
  if (options.oauth !== undefined && authGuard === undefined) {
    problems.push(
      "oauth needs authGuard (the guard that judges bearer tokens) or oauth.jwt (the library's JWT verifier)",
    );
  }
  const perCaller = options.toolListPerCaller ?? false;
  if (typeof perCaller !== 'boolean') {
    problems.push('toolListPerCaller must be a boolean');
  } else if (perCaller && authGuard === undefined) {
    problems.push(
      'toolListPerCaller needs authGuard (or oauth.jwt): the list is that of the principal it sets',
    );
  }
  const requireToken = resolveRequireToken(options, authGuard, problems);
  if (
    options.permissionsOf !== undefined &&
    typeof options.permissionsOf !== 'function'
  ) {
    problems.push(
      'permissionsOf must be a function from a principal to its permission names',
    );
  }
  if (
    options.tenantOf !== undefined &&
    typeof options.tenantOf !== 'function'
  ) {
    problems.push('tenantOf must be a function from the headers to a tenant');
  }
  const telemetry = resolveTelemetryOptions(options.telemetry, problems);
  const redis = resolveRedisOptions(options.redis, problems);
  const asking = resolveAskingOptions(options.asking, problems);
  const tasks = resolveTasksOptions(
    options.tasks,
    redis !== undefined,
    problems,
  );
  const resumption = resolveResumptionOptions(options.resumption, problems);
  if (problems.length > 0) {
    throw new Error(`Invalid McpModule options: ${problems.join('; ')}.`);
  }
  return Object.freeze({
    ...greetingSettings(options, defaults),
    path,
    tools: Object.freeze({ ...tools }),
    allowedOrigins: origins && Object.freeze([...origins]),
    maxBodySize: options.maxBodySize ?? DEFAULT_MAX_BODY_SIZE,
    timeout: options.timeout,
    authGuard,
    requireToken,
    permissionsOf: options.permissionsOf,
    tenantOf: options.tenantOf,
    inputLimits: Object.freeze({ ...INPUT_LIMITS, ...limits }),
    oauth,
    toolListPerCaller: perCaller === true,
    telemetry,
    redis,
    asking,
    tasks,
    resumption,
  });
}

/** An HTTP authentication scheme: a token (RFC 9110). */
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The top-level `requireToken`: a scheme to challenge with, or undefined. */
function resolveRequireToken(
  options: McpModuleOptions,
  authGuard: Type<CanActivate> | undefined,
  problems: string[],
): McpSettings['requireToken'] {
  const given = options.requireToken;
  if (given === undefined || given === false) {
    return undefined;
  }
  const scheme =
    given === true ? 'Bearer' : (given as { scheme?: unknown })?.scheme;
  if (typeof scheme !== 'string' || !AUTH_SCHEME.test(scheme)) {
    problems.push(
      "requireToken must be true, false or { scheme } with an HTTP authentication scheme such as 'ApiKey'",
    );
    return undefined;
  }
  if (options.oauth !== undefined) {
    problems.push(
      "requireToken is for apps without oauth; with oauth, set oauth.requireToken ('always' or 'forPermission')",
    );
  } else if (authGuard === undefined) {
    problems.push(
      'requireToken needs authGuard: the guard that judges the credentials it requires',
    );
  }
  return Object.freeze({ scheme });
}
