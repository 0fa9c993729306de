/**
 * The startup warning when McpServerLifecycleModule cannot learn that the whole
 * application has bootstrapped, naming the installed Nest, what it lacks
 * and what the endpoint does instead.
 */
export const bootstrapFallbackMessage = (
  nest: string | undefined,
  missing: string,
): string =>
  `McpServerLifecycleModule cannot tell when the whole application has bootstrapped on @nestjs/core ${nest ?? '(version unknown)'}: ${missing}. ` +
  "The app is ready from McpServerLifecycleModule's own onApplicationBootstrap hook on, which Nest runs before those of the root module " +
  'and of the modules between it and McpServerLifecycleModule.';

/**
 * The startup warning when McpServerLifecycleModule cannot learn that shutdown has begun,
 * naming the installed Nest, what it lacks and what the endpoint does
 * instead.
 */
export const shutdownFallbackMessage = (
  nest: string | undefined,
  missing: string,
): string =>
  `McpServerLifecycleModule cannot tell when the application begins to shut down on @nestjs/core ${nest ?? '(version unknown)'}: ${missing}. ` +
  "The drain starts from McpServerLifecycleModule's own onModuleDestroy hook, which Nest runs after those of the root module " +
  'and of the modules between it and McpServerLifecycleModule.';
