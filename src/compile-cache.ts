import * as nodeModule from 'node:module';

/**
 * Node's module compile cache (Node 22.1 and newer; absent on Node 20, where
 * this does nothing): the code of every module loaded after this one is
 * compiled once and then read from a cache on disk (`NODE_COMPILE_CACHE`,
 * else a folder in the system's temporary directory), which takes about a
 * quarter off the command line's start. Imported first by `cli.ts`, so
 * that it is on before the app and the libraries load; `runCli` writes the
 * cache once the app has started, so a client that kills the server still
 * leaves it for the next start.
 */
(
  nodeModule as { enableCompileCache?: (directory?: string) => unknown }
).enableCompileCache?.();
