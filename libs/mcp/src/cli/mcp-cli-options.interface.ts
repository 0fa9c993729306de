import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { AppSetup } from '@nestops/operations';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpServerFeature } from '../protocol/greeting.js';

/**
 * The app's root module, loaded when a command needs it: an arrow or async
 * function (one with no `prototype`, which a module class always has), e.g.
 * `() => import('./app.module.js').then((m) => m.AppModule)`.
 */
export type McpAppLoader = () => Promise<Type<unknown> | DynamicModule>;

/**
 * What McpModule's options say of the server's greeting (`initialize`,
 * `server/discover`), told to `runCli` so that the `mcp` command answers
 * it before the app has loaded.
 */
export type McpCliServerOptions = Pick<
  McpModuleOptions,
  'serverName' | 'serverVersion' | 'instructions' | 'cacheTtl'
> & {
  /**
   * What the app serves beyond tools and logging (`'resources'`,
   * `'prompts'`, `'completions'`), each declared as a capability. Default:
   * none.
   */
  readonly features?: readonly McpServerFeature[];
  /**
   * Whether operations run as tasks (`@Operation({ task })`): the
   * `server/discover` answer declares the tasks extension. Default: false.
   */
  readonly taskSupport?: boolean;
};

/** How `runCli` runs. */
export interface McpCliOptions<A extends INestApplication = INestApplication> {
  /**
   * The program's name in usage lines and help (default: `cli`). The
   * server's `serverInfo` is the app's on every carrier: McpModule's
   * `serverName`, else the `name` of the app's `package.json`.
   */
  readonly name?: string;
  /**
   * The setup function the app's `main.ts` applies (global guards, pipes,
   * interceptors, filters): given, the app is created as `main.ts` creates
   * it (`NestFactory.create()`, with `@nestjs/platform-express`), `setup`
   * is applied, and it is initialised without listening, so that
   * `invoke` and `mcp` calls meet the same guards as HTTP requests. Without
   * it, the app boots as an application context, and what `main.ts` sets
   * on the application does not apply.
   */
  readonly setup?: AppSetup<A>;
  /**
   * With the app given as a loader (`McpAppLoader`): the `mcp` command
   * answers `initialize` and `server/discover` from these and `name`
   * before the app has loaded, and loads it once the first is answered.
   * They must be what McpModule's options say (where those leave the name
   * and version out: `name`, then the `name` and `version` of the
   * `package.json` above the main script); once the app has started the
   * command compares the two greetings, and a difference ends it on stderr
   * with exit code 70. Messages other than the greetings wait for the app
   * and are served in order.
   */
  readonly server?: McpCliServerOptions;
  /**
   * The app's folder, made the working directory before the app loads, so
   * that its relative paths (a SQLite file, `ConfigModule`'s `.env`)
   * resolve the same whatever folder an MCP client starts the process from
   * (Claude Desktop starts it from `/`): `join(__dirname, '..')`, or in an
   * ES module `fileURLToPath(new URL('..', import.meta.url))`. Pass the app
   * as a loader (`() => import('./app.module.js').then((m) => m.AppModule)`)
   * when its modules read files as they are imported (`ConfigModule.forRoot()`
   * reads `.env` then). Not a directory: a usage line on stderr, exit 64.
   * Default: the working directory the process was started in.
   */
  readonly cwd?: string;
  /** The command line, without `node` and the script. Default: `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Exit the process with the command's exit code once it is done. Default: true. */
  readonly exit?: boolean;
}
