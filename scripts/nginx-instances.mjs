// What scripts/rolling-restart.mjs and scripts/task-failover.mjs share: the
// sample's instances as workers of Node's cluster module (the script is the
// primary, so that a port's listening socket outlives its instance), and
// nginx on 127.0.0.1 in front of them.
import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, nginxBinary, nginxConfig } from './nginx-config.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist/src/main.js');

/** Exits 2, `script` naming itself, unless the sample is built. */
export function requireBuild(script) {
  if (!existsSync(MAIN)) {
    console.error(`${script}: ${MAIN} is missing; run npm run build first.`);
    process.exit(2);
  }
}

// Each worker accepts on the port's socket itself; the primary only holds the
// socket, so that it stays open while any instance on the port is alive.
cluster.schedulingPolicy = cluster.SCHED_NONE;
cluster.setupPrimary({ exec: MAIN, cwd: ROOT, silent: true });

/** nginx in front of both instances: upstream keep-alive, passive health checks. */
function orderDeskNginx(dir, listen, ports, { keepalive, failTimeoutS }) {
  return nginxConfig(dir, {
    listen,
    servers: ports.map(
      (port) => `127.0.0.1:${port} max_fails=1 fail_timeout=${failTimeoutS}s`,
    ),
    keepalive,
    location: [
      // A refused connection is tried on the other instance (a POST only
      // when nothing was sent: no non_idempotent).
      'proxy_next_upstream error timeout;',
      'proxy_next_upstream_tries 2;',
      'proxy_connect_timeout 2s;',
    ],
  });
}

/**
 * nginx on 127.0.0.1:`listen` in front of `ports`, its configuration and
 * logs in `dir`; resolves once it answers.
 */
async function startNginx(dir, listen, ports, options) {
  writeFileSync(
    join(dir, 'nginx.conf'),
    orderDeskNginx(dir, listen, ports, options),
  );
  const nginx = spawn(
    nginxBinary(),
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  await Promise.race([
    waitNginx(listen),
    exited.then((code) => {
      throw new Error(`nginx exited ${code}`);
    }),
  ]);
  return nginx;
}

/** Stops nginx (SIGQUIT: its graceful stop), if it runs. */
export async function stopNginx(nginx) {
  if (nginx && nginx.exitCode === null) {
    nginx.kill('SIGQUIT');
    await new Promise((resolve) => nginx.once('exit', resolve));
  }
}

async function waitNginx(port) {
  for (let tries = 0; tries < 200; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/ready`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await sleep(50);
  }
  throw new Error('nginx never listened');
}

/**
 * One instance of the sample on `port` with `env` (besides PORT and HOST),
 * its output lines pushed to `log`; resolves once it listens, with
 * `{ worker, exited, port }`.
 */
export function startInstance(port, env, log) {
  const worker = cluster.fork({
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  });
  const exited = new Promise((resolve) =>
    worker.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  const onData = (chunk) => {
    output += chunk;
    log.push(`[${port}] ${chunk}`.trimEnd());
  };
  worker.process.stdout.on('data', onData);
  worker.process.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    worker.once('listening', () => resolve({ worker, exited, port }));
    exited.then((exit) =>
      reject(
        new Error(
          `instance on ${port} exited ${JSON.stringify(exit)}:\n${output}`,
        ),
      ),
    );
  });
}

/** Resolves once the instance on `port` answers `GET /ready` with 200. */
export async function waitReady(port) {
  for (let tries = 0; tries < 600; tries++) {
    const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(50);
  }
  throw new Error(`instance on ${port} never became ready`);
}

/**
 * Two instances, `start(port)` each on a port of its own (one at a time:
 * the first runs the migrations), pushed to `instances` as they listen,
 * and nginx in front of them; resolves with nginx and its port.
 */
export async function startPair(start, instances, dir, nginxOptions) {
  const [proxyPort, ...ports] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
  for (const port of ports) {
    instances.push(await start(port));
    await waitReady(port);
  }
  const nginx = await startNginx(dir, proxyPort, ports, nginxOptions);
  return { nginx, proxyPort };
}

/** SIGTERM to every instance still running; resolves once they exited. */
export async function stopInstances(instances) {
  for (const instance of instances) {
    if (!instance.worker.isDead()) {
      instance.worker.process.kill('SIGTERM');
      await instance.exited;
    }
  }
}
