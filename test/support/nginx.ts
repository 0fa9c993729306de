import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The nginx binary: `NGINX`, else Debian's, else `nginx` on PATH. */
export function nginxBinary(): string {
  if (process.env.NGINX) return process.env.NGINX;
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

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

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The configuration of nginx balancing round-robin across `upstreams`
 * (`127.0.0.1:<port>`), with upstream keep-alive as in production, each
 * answer's `X-Upstream` header naming the instance that gave it.
 */
function config(dir: string, listen: number, upstreams: string[]): string {
  const temp = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true, mode: 0o777 });
    return path;
  };
  return `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  upstream instances {
${upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
    keepalive 16;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://instances;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_read_timeout 30s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts nginx round-robin in front of `upstreams`; resolves once it listens. */
export async function startNginx(upstreams: string[]): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-e2e-'));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), config(dir, port, upstreams));
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
