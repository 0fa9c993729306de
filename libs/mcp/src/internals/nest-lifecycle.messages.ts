/**
 * The startup warning when McpModule cannot learn that the whole
 * application has bootstrapped, naming the installed Nest, what it lacks
 * and what the endpoint does instead.
 */
export const bootstrapFallbackMessage = (
  nest: string | undefined,
  missing: string,
): string =>
  `McpModule cannot tell when the whole application has bootstrapped on @nestjs/core ${nest ?? '(version unknown)'}: ${missing}. ` +
  "POST /mcp serves from McpModule's own onApplicationBootstrap hook on, which Nest runs before those of the root module " +
  'and of the modules between it and McpModule.';

/**
 * The startup warning when McpModule cannot learn that shutdown has begun,
 * naming the installed Nest, what it lacks and what the endpoint does
 * instead.
 */
export const shutdownFallbackMessage = (
  nest: string | undefined,
  missing: string,
): string =>
  `McpModule cannot tell when the application begins to shut down on @nestjs/core ${nest ?? '(version unknown)'}: ${missing}. ` +
  "POST /mcp refuses new requests (503) from McpModule's own onModuleDestroy hook on, which Nest runs after those of the root module " +
  'and of the modules between it and McpModule.';
