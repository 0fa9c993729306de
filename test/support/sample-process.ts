import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'dist/src/main.js');
/** The sample's command line, `npm run cli`. */
export const CLI = join(ROOT, 'dist/src/cli.js');

/** How the sample process ended; `at` from `performance.now()`. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
}

export interface SampleProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<Exit>;
  readonly output: () => string;
}

/** Runs `node dist/src/main.js` (what `npm start` runs) on a free port. */
export async function startSampleProcess(
  env: NodeJS.ProcessEnv,
): Promise<SampleProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<Exit>((done) =>
    child.once('exit', (code, signal) =>
      done({ code, signal, at: performance.now() }),
    ),
  );
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('listening on')) {
        ready();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => fail(new Error(`The sample exited:\n${output}`)));
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    exited,
    output: () => output,
  };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
