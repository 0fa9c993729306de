#!/usr/bin/env node
// Two instances of the sample (`dist/src/main.js`, built by `npm run build`)
// on one PostgreSQL database and one Redis, behind nginx on 127.0.0.1, with
// tasks on the bullmq engine (MCP_TASKS_ENGINE=bullmq). 2026-07-28 clients
// that negotiate tasks create FAILOVER_TASKS `orders_import` tasks of
// FAILOVER_ORDERS orders each through nginx (so on either instance); while
// the queue still holds a backlog, one instance is killed with SIGKILL and
// started again. The clients poll `tasks/get` through nginx until every task
// ended. Then it counts: tasks completed, orders acknowledged by them, orders
// in the database (each name must be there once), tasks lost (unknown) or
// stuck (not ended in time), and the jobs BullMQ took up again after the
// kill (stalled), and prints
//   task failover: 200 tasks completed, N orders written once, 0 lost, 0 stuck, 1 instance killed (kill -9) mid-run
// exiting 1 on any task not completed, any order missing or written twice,
// or when no job of the killed instance was taken up again (the kill missed
// its moment: nothing was tested).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/db REDIS_URL=redis://127.0.0.1:6379 node scripts/task-failover.mjs
//
// Options (environment): FAILOVER_TASKS (200), FAILOVER_ORDERS (3),
// FAILOVER_CLIENTS (20), FAILOVER_CONCURRENCY (each instance's
// tasks.concurrency, 2), NGINX (the nginx binary). The run uses a schema and a
// queue of its own (`failover_<pid>`, `failover-<pid>`), dropped at the end,
// and a temporary directory for nginx.
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  requireBuild,
  startInstance as startSample,
  startPair,
  stopInstances,
  stopNginx,
  waitReady,
} from './nginx-instances.mjs';

const { DATABASE_URL, REDIS_URL } = process.env;
const TASKS = Number(process.env.FAILOVER_TASKS ?? 200);
const ORDERS = Number(process.env.FAILOVER_ORDERS ?? 3);
const CLIENTS = Number(process.env.FAILOVER_CLIENTS ?? 20);
const CONCURRENCY = process.env.FAILOVER_CONCURRENCY ?? '2';
/** How long the tasks have to end after the kill. */
const DEADLINE_MS = 120_000;
const QUEUE = `failover-${process.pid}`;
const TENANT = 'acme';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28',
  Authorization: 'ApiKey dev-alice-key',
  'X-Tenant-Id': TENANT,
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
  'io.modelcontextprotocol/clientInfo': { name: 'failover', version: '1.0.0' },
};

for (const [name, value] of Object.entries({ DATABASE_URL, REDIS_URL })) {
  if (!value) {
    console.error(`task failover: set ${name}.`);
    process.exit(2);
  }
}
requireBuild('task failover');

/** One instance of the sample on `port`, its tasks on the run's queue; resolves once it listens. */
function startInstance(port, schema, log) {
  return startSample(
    port,
    {
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL,
      MCP_TASKS_ENGINE: 'bullmq',
      MCP_TASKS_QUEUE: QUEUE,
      MCP_TASKS_CONCURRENCY: CONCURRENCY,
    },
    log,
  );
}

let nextId = 1;

/** One 2026-07-28 request through nginx; `{ status, body }`, or `{ status: 0 }` when the connection failed. */
async function rpc(url, method, params, name) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'Mcp-Method': method, 'Mcp-Name': name },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: META },
    }),
  }).catch((error) => ({ error }));
  if (response.error) return { status: 0, error: response.error.message };
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, text };
  }
}

/** Creates task `index` (its orders named `failover-<index>-<n>`); its id. */
async function createTask(url, index) {
  const orders = Array.from({ length: ORDERS }, (_, n) => ({
    name: `failover-${index}-${n}`,
    amount: 1 + n,
  }));
  const answer = await rpc(
    url,
    'tools/call',
    { name: 'orders_import', arguments: { orders } },
    'orders_import',
  );
  const taskId = answer.body?.result?.taskId;
  if (answer.status !== 200 || answer.body?.result?.resultType !== 'task') {
    throw new Error(`task ${index} not created: ${JSON.stringify(answer)}`);
  }
  return taskId;
}

/** Polls `tasks/get` until the task ended or `deadline`; a failed poll (the killed instance) is tried again. */
async function pollTask(url, taskId, deadline, tally) {
  for (;;) {
    const answer = await rpc(url, 'tasks/get', { taskId }, taskId);
    const task = answer.body?.result;
    if (answer.body?.error) return { lost: answer.body.error };
    if (!task) tally.failedPolls += 1;
    else if (['completed', 'failed', 'cancelled'].includes(task.status))
      return { task };
    if (performance.now() > deadline) return { stuck: task };
    await sleep(100);
  }
}

/** Runs `work(i)` for 0..count-1, `parallel` at a time. */
async function inParallel(count, parallel, work) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

const dir = mkdtempSync(join(tmpdir(), 'task-failover-'));
chmodSync(dir, 0o755);
const schema = `failover_${process.pid}`;
const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
await db.query(`CREATE SCHEMA "${schema}"`);
const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const queue = new Queue(QUEUE, { connection });
const events = new QueueEvents(QUEUE, { connection: { url: REDIS_URL } });
const stalled = [];
events.on('stalled', ({ jobId }) =>
  stalled.push({ jobId, at: performance.now() }),
);
// A job that failed (stalled past its limit, say) leaves its task working: say why.
events.on('failed', ({ jobId, failedReason }) =>
  console.log(`  job ${jobId} failed: ${failedReason}`),
);
const log = [];
let nginx;
const instances = [];
let failed = true;
try {
  await events.waitUntilReady();
  let proxyPort;
  ({ nginx, proxyPort } = await startPair(
    (port) => startInstance(port, schema, log),
    instances,
    dir,
    {
      keepalive: 32,
      failTimeoutS: 1,
    },
  ));
  const url = `http://127.0.0.1:${proxyPort}/mcp`;

  // Every task created before the kill: no creation is in flight when it
  // comes, so each task the clients know of is every task there is.
  const began = performance.now();
  const taskIds = await inParallel(TASKS, CLIENTS, (index) =>
    createTask(url, index),
  );
  const createdMs = performance.now() - began;
  const backlog = await queue.getWaitingCount();
  const active = await queue.getActiveCount();

  // SIGKILL while both workers are busy and jobs wait: the killed one's
  // jobs stall, and another worker takes them up once their lock expired.
  const victim = instances[0];
  const killedAt = performance.now();
  victim.worker.process.kill('SIGKILL');
  const exit = await victim.exited;
  instances[0] = await startInstance(victim.port, schema, log);
  await waitReady(victim.port);
  const restartMs = performance.now() - killedAt;

  const tally = { failedPolls: 0 };
  const deadline = performance.now() + DEADLINE_MS;
  const outcomes = await inParallel(TASKS, CLIENTS, (index) =>
    pollTask(url, taskIds[index], deadline, tally),
  );
  const endedMs = performance.now() - killedAt;

  const completed = outcomes.filter((o) => o.task?.status === 'completed');
  const notCompleted = outcomes.filter(
    (o) => o.task && o.task.status !== 'completed',
  );
  const lost = outcomes.filter((o) => o.lost);
  const stuck = outcomes.filter((o) => 'stuck' in o);
  const acknowledged = completed.flatMap(
    (o) => o.task.result?.structuredContent?.ids ?? [],
  );
  const { rows } = await db.query(
    `SELECT id, name FROM "${schema}".orders WHERE "tenantId" = $1 AND name LIKE 'failover-%'`,
    [TENANT],
  );
  const names = new Map();
  for (const row of rows) names.set(row.name, (names.get(row.name) ?? 0) + 1);
  const twice = [...names.values()].filter((count) => count > 1).length;
  const stored = new Set(rows.map((row) => Number(row.id)));
  const missing = acknowledged.filter((id) => !stored.has(id)).length;
  const takenUp = stalled.filter((event) => event.at >= killedAt);
  const takeover = takenUp.length
    ? `${((Math.max(...takenUp.map((event) => event.at)) - killedAt) / 1000).toFixed(1)} s`
    : 'none';

  console.log(
    `  ${TASKS} tasks created through nginx in ${createdMs.toFixed(0)} ms; ` +
      `at the kill ${active} jobs ran and ${backlog} waited`,
  );
  console.log(
    `  instance on ${victim.port} killed (${exit.signal}), started again in ${restartMs.toFixed(0)} ms; ` +
      `${takenUp.length} of its jobs taken up again (stalled) within ${takeover} of the kill; ` +
      `every task ended ${(endedMs / 1000).toFixed(1)} s after it; ${tally.failedPolls} polls failed and were retried`,
  );
  console.log(
    `task failover: ${completed.length} tasks completed, ${rows.length} orders written once, ` +
      `${lost.length} lost, ${stuck.length} stuck, 1 instance killed (kill -9) mid-run`,
  );
  for (const task of [
    ...notCompleted.map((o) => o.task),
    ...stuck.map((o) => o.stuck),
  ].slice(0, 5))
    console.log(`  not completed: ${JSON.stringify(task).slice(0, 300)}`);
  failed =
    completed.length !== TASKS ||
    lost.length > 0 ||
    stuck.length > 0 ||
    acknowledged.length !== TASKS * ORDERS ||
    rows.length !== acknowledged.length ||
    missing > 0 ||
    twice > 0 ||
    exit.signal !== 'SIGKILL' ||
    takenUp.length === 0;
  if (failed) {
    console.log(
      `  FAILED: ${acknowledged.length} orders acknowledged, ${rows.length} stored, ` +
        `${missing} acknowledged but missing, ${twice} names written twice, ` +
        `${takenUp.length} jobs taken up after the kill`,
    );
  }
} finally {
  await stopInstances(instances);
  await stopNginx(nginx);
  await events.close();
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  const keys = await connection.keys(`nestops:mcp:tasks:${QUEUE}:*`);
  if (keys.length > 0) await connection.del(...keys);
  await connection.quit();
  await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  await db.end();
  if (failed) {
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
