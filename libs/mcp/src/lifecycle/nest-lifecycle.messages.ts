/**
 * The startup warning when McpServerLifecycleModule cannot learn that
 * `app.listen()` has the server listening, naming the installed Nest, what
 * it lacks and what the module does instead.
 */
export const listenFallbackMessage = (
  nest: string | undefined,
  missing: string,
): string =>
  `McpServerLifecycleModule cannot tell when app.listen() has the server listening on @nestjs/core ${nest ?? '(version unknown)'}: ${missing}. ` +
  "The app is ready from McpServerLifecycleModule's own onApplicationBootstrap hook on, which Nest runs before those of the root module and of the modules the root imports after it.";
