#!/usr/bin/env node
// Two instances of the sample (`dist/src/main.js`, built by `npm run build`)
// on one PostgreSQL database, behind nginx on 127.0.0.1, each restarted
// ROLLING_ROUNDS times, one after the other, while MCP SDK clients
// (`@modelcontextprotocol/sdk`, Streamable HTTP) call `orders_create` through
// nginx. Then it counts the writes the clients saw acknowledged, the rows in
// the database, the errors the clients saw and nginx's 502s, prints
//   rolling restart: N writes acknowledged, 0 lost, 0 client-visible errors
// and exits 1 on any lost write, client-visible error or 502.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/db node scripts/rolling-restart.mjs
//
// Each instance is a worker of Node's cluster module (this script is the
// primary), so that its listening socket can outlive it. ROLLING_MODE picks
// how an instance is restarted:
// - `handoff` (the default):
//   start the new instance on the same port, wait until it listens, then
//   SIGTERM the old one. The socket stays open through the restart: nginx
//   never meets a refused or reset connection.
// - `stop-start`: SIGTERM the instance, wait for its exit, start it again.
//   Its listening socket closes; a connection nginx opens at that instant is
//   reset in the kernel's queue, which nginx answers with a 502 (the request
//   never reached the app). nginx, which does not watch `GET /ready`, keeps
//   connecting until it is refused, so this mode can fail on a 502.
//
// Options (environment): ROLLING_CLIENTS (20), ROLLING_ROUNDS (3),
// ROLLING_MODE (handoff), ROLLING_KEEPALIVE (nginx's `keepalive`, 32; 1
// makes nginx open a connection for nearly every request), ROLLING_DRAIN_DELAY (the instances'
// SHUTDOWN_DRAIN_DELAY, 1000 ms), NGINX (the nginx binary, `nginx` on PATH or
// /usr/sbin/nginx). The run uses a schema of its own, dropped at the end, and
// a temporary directory for nginx's configuration and logs (printed when the
// run fails).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  requireBuild,
  startInstance as startSample,
  startPair,
  stopInstances,
  stopNginx,
  waitReady,
} from './nginx-instances.mjs';

const DATABASE_URL = process.env.DATABASE_URL;
const CLIENTS = Number(process.env.ROLLING_CLIENTS ?? 20);
const DRAIN_DELAY = process.env.ROLLING_DRAIN_DELAY ?? '1000';
/** How many times each instance is restarted. */
const ROUNDS = Number(process.env.ROLLING_ROUNDS ?? 3);
const MODE = process.env.ROLLING_MODE ?? 'handoff';
/** nginx's idle connections kept to the instances (fewer: more new ones). */
const KEEPALIVE = Number(process.env.ROLLING_KEEPALIVE ?? 32);
/** nginx's `fail_timeout`: how long a server that refused a connection is left out. */
const FAIL_TIMEOUT_S = 1;
// A tenant of the API key's caller (the sample's dev-alice-key).
const TENANT = 'acme';
const HEADERS = {
  Authorization: 'ApiKey dev-alice-key',
  'X-Tenant-Id': TENANT,
};

if (MODE !== 'handoff' && MODE !== 'stop-start') {
  console.error(
    `rolling restart: ROLLING_MODE=${MODE}; use handoff or stop-start.`,
  );
  process.exit(2);
}
if (!DATABASE_URL) {
  console.error('rolling restart: set DATABASE_URL (a PostgreSQL database).');
  process.exit(2);
}
requireBuild('rolling restart');

/** One instance of the sample on `port`; resolves once it listens. */
function startInstance(port, schema, log) {
  return startSample(
    port,
    {
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      SHUTDOWN_DRAIN_DELAY: DRAIN_DELAY,
    },
    log,
  );
}

/** SIGTERM, as a deploy sends it; resolves once the instance exited 0. */
async function stopInstance(instance) {
  instance.worker.process.kill('SIGTERM');
  const exit = await instance.exited;
  if (exit.code !== 0)
    throw new Error(
      `instance on ${instance.port} exited ${JSON.stringify(exit)}`,
    );
}

/** A real SDK client calling orders_create back to back until `stopped()`. */
async function clientLoop(url, index, stopped, tally) {
  const client = new Client({ name: `rolling-${index}`, version: '1.0.0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: HEADERS },
      }),
    );
  } catch (error) {
    tally.errors.push(
      `initialize: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  let n = 0;
  while (!stopped()) {
    n += 1;
    try {
      const result = await client.callTool({
        name: 'orders_create',
        arguments: { name: `rolling-${index}-${n}`, amount: 1 + (n % 100) },
      });
      const id = result.structuredContent?.id;
      if (result.isError || typeof id !== 'number') {
        tally.errors.push(`tool error: ${JSON.stringify(result.content)}`);
      } else {
        tally.acknowledged.push(id);
      }
    } catch (error) {
      tally.errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  await client.close();
}

const dir = mkdtempSync(join(tmpdir(), 'rolling-restart-'));
// nginx's workers run as another user when it is started as root.
chmodSync(dir, 0o755);
const schema = `rolling_${process.pid}`;
const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
await db.query(`CREATE SCHEMA "${schema}"`);
const log = [];
let nginx;
const instances = [];
let failed = true;
try {
  let proxyPort;
  ({ nginx, proxyPort } = await startPair(
    (port) => startInstance(port, schema, log),
    instances,
    dir,
    {
      keepalive: KEEPALIVE,
      failTimeoutS: FAIL_TIMEOUT_S,
    },
  ));

  const tally = { acknowledged: [], errors: [] };
  let stop = false;
  const loops = Array.from({ length: CLIENTS }, (_, index) =>
    clientLoop(`http://127.0.0.1:${proxyPort}/mcp`, index, () => stop, tally),
  );
  await sleep(1_000);
  const restarts = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const [slot, instance] of instances.entries()) {
      const before = tally.acknowledged.length;
      const signalledAt = performance.now();
      if (MODE === 'handoff') {
        instances[slot] = await startInstance(instance.port, schema, log);
        await stopInstance(instance);
      } else {
        await stopInstance(instance);
        instances[slot] = await startInstance(instance.port, schema, log);
        await waitReady(instance.port);
      }
      const restartMs = performance.now() - signalledAt;
      restarts.push(
        `instance on ${instance.port}: restarted (${MODE}, old one exited 0) in ${restartMs.toFixed(0)} ms; ` +
          `${tally.acknowledged.length - before} writes acknowledged meanwhile`,
      );
      // Long enough for nginx to send it work again before the next one leaves.
      await sleep(FAIL_TIMEOUT_S * 1_000 + 1_000);
    }
  stop = true;
  await Promise.all(loops);

  const { rows } = await db.query(
    `SELECT id FROM "${schema}".orders WHERE "tenantId" = $1`,
    [TENANT],
  );
  const stored = new Set(rows.map((row) => Number(row.id)));
  const lost = tally.acknowledged.filter((id) => !stored.has(id));
  const resets = readFileSync(join(dir, 'error.log'), 'utf8')
    .split('\n')
    .filter((line) => /reset by peer|prematurely closed/.test(line));
  // Every answer nginx gave, by status: a 502 is a write the client may retry.
  const statuses = new Map();
  for (const line of readFileSync(join(dir, 'access.log'), 'utf8').split(
    '\n',
  )) {
    const status = /" (\d{3}) /.exec(line)?.[1];
    if (status) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const badGateway = statuses.get('502') ?? 0;
  restarts.forEach((line) => console.log(`  ${line}`));
  console.log(
    `rolling restart: ${tally.acknowledged.length} writes acknowledged, ${lost.length} lost, ` +
      `${tally.errors.length} client-visible errors (${CLIENTS} SDK clients, ${stored.size} rows; ` +
      `nginx logged ${resets.length} upstream resets; ${restarts.length} restarts (${MODE}), ` +
      `${badGateway} answered 502)`,
  );
  if (tally.errors.length > 0) {
    console.log(
      [...new Set(tally.errors)]
        .slice(0, 5)
        .map((e) => `  error: ${e.slice(0, 300)}`)
        .join('\n'),
    );
  }
  failed =
    badGateway > 0 ||
    lost.length > 0 ||
    tally.errors.length > 0 ||
    tally.acknowledged.length === 0;
} finally {
  await stopInstances(instances);
  await stopNginx(nginx);
  await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  await db.end();
  if (failed) {
    console.log(
      `nginx error log:\n${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '(none)'}`,
    );
    console.log(
      log
        .filter((line) => !/ LOG /.test(line))
        .slice(-40)
        .join('\n'),
    );
  }
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
