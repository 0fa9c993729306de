import { Logger } from '@nestjs/common';
import type { McpModuleOptions, McpServerLifecycleOptions } from '@nestops/mcp';
import { randomBytes } from 'node:crypto';
import { ApiKeyGuard } from './auth/api-key.guard';
import { tenantOfHeaders } from './auth/tenant';
import { MCP_SERVER } from './mcp.server';

/**
 * How the sample's server leaves service, from its environment:
 * `GET /ready` answers its readiness, and `SHUTDOWN_DRAIN_DELAY=<ms>` is how
 * long, on a shutdown signal, it answers `503` while the app serves on,
 * before it stops taking connections (default 0).
 */
export function lifecycleOptions(
  env: NodeJS.ProcessEnv = process.env,
): McpServerLifecycleOptions {
  return {
    readinessPath: '/ready',
    shutdownDrainDelay:
      env.SHUTDOWN_DRAIN_DELAY === undefined
        ? undefined
        : Number(env.SHUTDOWN_DRAIN_DELAY),
  };
}

/**
 * The sample's MCP options, from its environment:
 * - `MCP_TOOL_LIST_PER_CALLER=true`: `tools/list` shows each caller the
 *   tools its permissions reach;
 * - `MCP_AUDIT=true`: an audit event of every tool call, one JSON line on
 *   the app's log;
 * - `MCP_STATE_KEY=<secret>[,<older secret>]`: what seals the state a
 *   2026-07-28 client comes back with after answering a question (a
 *   confirmation, a form, a sampling); the same on every instance. Unset, a
 *   key made at startup (`stateKeysOf`);
 * - `OAUTH_ISSUER=<issuer URL>`: OAuth mode, the endpoint a protected
 *   resource of that authorization server, whose JWT access tokens the
 *   library's verifier checks (`ApiKeyGuard` hands it `Bearer` tokens);
 *   `MCP_RESOURCE` is its public URL (default
 *   `http://127.0.0.1:<PORT>/mcp`), `MCP_STEP_UP=true` turns on step-up,
 *   `MCP_REQUIRE_TOKEN=forPermission` lets anonymous callers list tools,
 *   `OAUTH_VERIFIER=passport` checks tokens with the app's own passport-jwt
 *   strategy instead of the library's verifier;
 * - `MCP_TASKS_ENGINE=bullmq` with `REDIS_URL=redis://host:6379`: tasks
 *   (`orders.import` for a client that negotiated them) kept in Redis and
 *   run as jobs of a BullMQ queue (`MCP_TASKS_QUEUE`, default
 *   `nestops-mcp-tasks`) that every instance works, `MCP_TASKS_CONCURRENCY`
 *   (default 4) at a time. Unset: in memory.
 */
export function mcpOptions(
  env: NodeJS.ProcessEnv = process.env,
): McpModuleOptions {
  const options: McpModuleOptions = {
    ...MCP_SERVER,
    authGuard: ApiKeyGuard,
    // The sample's tenancy: a call's X-Tenant-Id, checked for its form.
    tenantOf: tenantOfHeaders,
    toolListPerCaller: env.MCP_TOOL_LIST_PER_CALLER === 'true',
    ...(env.MCP_AUDIT === 'true' ? { telemetry: { audit: true } } : {}),
    // orders.delete asks the user to confirm, orders.schedule-delivery asks
    // for a slot, orders.describe asks the client's model.
    asking: { stateKeys: stateKeysOf(env) },
    ...tasksOptions(env),
  };
  const issuer = env.OAUTH_ISSUER;
  if (!issuer) {
    return options;
  }
  return {
    ...options,
    oauth: {
      resource:
        env.MCP_RESOURCE ?? `http://127.0.0.1:${env.PORT ?? '3000'}/mcp`,
      authorizationServers: [issuer],
      resourceName: 'Order desk',
      stepUp: env.MCP_STEP_UP === 'true',
      requireToken:
        env.MCP_REQUIRE_TOKEN === 'forPermission' ? 'forPermission' : 'always',
      // The library's verifier, unless the app's own checks the tokens.
      ...(env.OAUTH_VERIFIER === 'passport' ? {} : { jwt: {} }),
    },
  };
}

/** The `tasks` and `redis` options: in Redis with MCP_TASKS_ENGINE=bullmq, else none (in memory). */
function tasksOptions(
  env: NodeJS.ProcessEnv,
): Pick<McpModuleOptions, 'tasks' | 'redis'> {
  if (env.MCP_TASKS_ENGINE !== 'bullmq') {
    return {};
  }
  if (!env.REDIS_URL) {
    throw new Error('MCP_TASKS_ENGINE=bullmq needs REDIS_URL.');
  }
  return {
    redis: env.REDIS_URL,
    tasks: {
      engine: 'bullmq',
      ...(env.MCP_TASKS_QUEUE ? { queueName: env.MCP_TASKS_QUEUE } : {}),
      ...(env.MCP_TASKS_CONCURRENCY
        ? { concurrency: Number(env.MCP_TASKS_CONCURRENCY) }
        : {}),
    },
  };
}

/** The key this process made when MCP_STATE_KEY is unset; made once. */
let startupKey: string | undefined;

/**
 * The secrets of `asking.stateKeys`: `MCP_STATE_KEY`, comma-separated (the
 * new key first while an old one still opens what it sealed). Unset, a
 * random key made at startup and logged as such: `npm start` needs no
 * setup, but a state sealed by one instance opens on no other, nor after a
 * restart.
 */
export function stateKeysOf(env: NodeJS.ProcessEnv = process.env): string[] {
  const keys = (env.MCP_STATE_KEY ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (keys.length > 0) {
    return keys;
  }
  if (startupKey === undefined) {
    startupKey = randomBytes(32).toString('base64');
    new Logger('OrderDesk').log(
      'MCP_STATE_KEY is not set: a random key made at startup seals the questions to 2026-07-28 clients. It holds for this one instance until it restarts; behind a load balancer, set MCP_STATE_KEY (openssl rand -base64 32) to the same value on every instance.',
    );
  }
  return [startupKey];
}
