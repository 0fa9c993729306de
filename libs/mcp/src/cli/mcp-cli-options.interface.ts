import type { INestApplication } from '@nestjs/common';
import type { AppSetup } from '@nestops/operations';

/** How `runCli` runs. */
export interface McpCliOptions<A extends INestApplication = INestApplication> {
  /**
   * The program's name in usage lines and help (default: `cli`), and the
   * server's `serverInfo.name` on stdio where McpModule's `serverName` is
   * not set (default there: the `name` of the app's `package.json`).
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
  /** The command line, without `node` and the script. Default: `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Exit the process with the command's exit code once it is done. Default: true. */
  readonly exit?: boolean;
}
