/** Operations named in a startup warning before it says "and N more". */
const NAMED = 5;

/**
 * The startup warning of `McpGuardCheck`: `operationIds` need a permission
 * and their calls run without `authGuard` (its class name), or without any
 * guard when the option is not set.
 */
export function unguardedMessage(
  operationIds: readonly string[],
  authGuard: string | undefined,
): string {
  const named = operationIds.slice(0, NAMED).join(', ');
  const more =
    operationIds.length > NAMED
      ? ` and ${operationIds.length - NAMED} more`
      : '';
  const which = `${operationIds.length} operation(s) that need a permission (${named}${more})`;
  const setup =
    "app.useGlobalGuards() in the setup function that main.ts applies and runCli's setup option (and createTestApplication) take";
  return authGuard
    ? `McpModule's authGuard ${authGuard} does not run on the calls of ${which}: a caller it lets through at the endpoint reaches them without request.user and is refused with SECURITY_DENIED_003. Register it for every call: { provide: APP_GUARD, useClass: ${authGuard} } in a module's providers, or ${setup}; or @UseGuards(${authGuard}) on those operations.`
    : `No guard runs on the calls of ${which}: nothing sets request.user, so every call is refused with SECURITY_DENIED_003. Register the app's authentication guard for every call: { provide: APP_GUARD, useClass: ... } in a module's providers, or ${setup}. A guard set with app.useGlobalGuards() in main.ts alone does not reach the command line, stdio or the testing clients.`;
}
