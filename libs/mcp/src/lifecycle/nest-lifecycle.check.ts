/* eslint-disable @typescript-eslint/no-require-imports -- the installed version is read from @nestjs/core's package.json (an export of the package) for the warning */
/**
 * What McpServerLifecycleModule reads of Nest, all of it public API: its
 * own providers' lifecycle hooks, and `HttpAdapterHost` (the adapter's HTTP
 * server, and `listen$`, which Nest fires once `app.listen()` has the
 * server listening, after the whole bootstrap).
 */
import type { HttpAdapterHost } from '@nestjs/core';

/** The installed `@nestjs/core`'s version, or undefined when it cannot be read. */
export function installedNestCore(): string | undefined {
  try {
    const { version } = require('@nestjs/core/package.json') as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `listener` once `app.listen()` has the app's server listening
 * (`HttpAdapterHost.listen$`); returns undefined once arranged, else what
 * the installed Nest lacks, for the caller's warning.
 */
export function callOnListen(
  adapterHost: HttpAdapterHost,
  listener: () => void,
): string | undefined {
  const listen$ = (adapterHost as Partial<HttpAdapterHost>).listen$;
  if (typeof listen$?.subscribe !== 'function') {
    return 'no HttpAdapterHost.listen$';
  }
  listen$.subscribe({ complete: listener, next: listener });
  return undefined;
}
