import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  freePort,
  nginxBinary,
  nginxConfig,
} from '../../scripts/nginx-config.mjs';

export { freePort, nginxBinary };

/** Whether nginx can be run here. */
export const NGINX_INSTALLED =
  process.env.NGINX !== undefined ||
  existsSync('/usr/sbin/nginx') ||
  (process.env.PATH ?? '')
    .split(':')
    .some((dir) => existsSync(join(dir, 'nginx')));

/** nginx in front of some instances, on 127.0.0.1. */
export interface RunningNginx {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** Stops nginx and removes its directory. */
  stop(): Promise<void>;
}

/** Starts nginx round-robin in front of `upstreams`; resolves once it listens. */
export async function startNginx(upstreams: string[]): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-e2e-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    nginxConfig(dir, {
      listen: port,
      servers: upstreams,
      // Each answer names the instance that gave it.
      location: ['add_header X-Upstream $upstream_addr always;'],
    }),
  );
  const nginx: ChildProcess = spawn(
    nginxBinary(),
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const exited = new Promise<number | null>((done) => nginx.once('exit', done));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      nginx.kill('SIGQUIT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; tries < 200; tries++) {
    if (nginx.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited ${nginx.exitCode}`);
    }
    const up = await fetch(baseUrl).then(
      () => true,
      () => false,
    );
    if (up) return { baseUrl, stop };
    await sleep(25);
  }
  await stop();
  throw new Error('nginx never listened');
}
