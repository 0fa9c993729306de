// What running as a task costs, in one run:
//
//   npm run bench:tasks          (node bench/tasks.mjs; needs npm run build:libs)
//
// A fixture app (this file, started again as the server with
// BENCH_TASKS_SERVE=1): the benchmarks' `items.list` operation (API-key
// guard, DTO validation, 10 items from memory) with `task: 'optional'`,
// McpModule's memory task engine. Over 2026-07-28 HTTP, from the harness's
// process, at CONCURRENCY calls under way, two loads alternate in each
// round (their order rotated, a fresh server per round): the plain call (a
// `tools/call` without the tasks extension: the result in its answer) and
// the task path (`tools/call` declaring the extension, answered with a
// task, then `tasks/get` until it is completed, without waiting between
// polls). Every answer is checked (10 items in the result). Prints per load
// the median calls (or tasks) completed per second, requests per task and
// the server's CPU time per call, and the ratios of the task path to the
// plain call (median of the rounds, with their range); writes
// bench/results/<date>-tasks.json. With REDIS_URL set, a third load: the
// task path on two instances of the app sharing tasks through BullMQ on Redis
// (`tasks.engine: 'bullmq'`, a queue of the round's own), its requests sent to
// one instance and the other in turn (created on one, polled on both), the
// server CPU of both counted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { machineInfo, machineLine } from './lib/machine.mjs';
import { median } from './lib/revision.mjs';
import { AUTHORIZATION, ARGUMENTS, startServer } from './lib/servers.mjs';

const FILE = fileURLToPath(import.meta.url);
const BENCH = dirname(FILE);
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_SECONDS = 1;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const log = (...args) => console.error(...args);

/** The fixture app, listening; reports to the harness over IPC. */
async function serve() {
  const require = createRequire(import.meta.url);
  const { Injectable, Module } = require('@nestjs/common');
  const { APP_GUARD } = require('@nestjs/core');
  const { McpModule } = require('@nestops/mcp');
  const { Operation } = require('@nestops/operations');
  const { listItems } = require('./servers/common.cjs');
  const common = require('./servers/nest-common.cjs');
  class ItemsOperations {
    list(input) {
      return listItems(input.limit);
    }
  }
  Reflect.decorate(
    [
      Operation({
        id: 'items.list',
        input: common.ListItemsDto,
        readOnly: true,
        task: 'optional',
      }),
    ],
    ItemsOperations.prototype,
    'list',
    Object.getOwnPropertyDescriptor(ItemsOperations.prototype, 'list'),
  );
  Reflect.decorate([Injectable()], ItemsOperations);
  class TasksBenchModule {}
  Reflect.decorate(
    [
      Module({
        imports: [
          McpModule.forRoot({
            serverName: 'bench-tasks',
            ...(process.env.BENCH_TASKS_QUEUE
              ? {
                  redis: process.env.REDIS_URL,
                  tasks: {
                    engine: 'bullmq',
                    queueName: process.env.BENCH_TASKS_QUEUE,
                  },
                }
              : { tasks: { engine: 'memory' } }),
          }),
        ],
        providers: [
          ItemsOperations,
          { provide: APP_GUARD, useClass: common.ApiKeyGuard },
        ],
      }),
    ],
    TasksBenchModule,
  );
  await common.bootNest(TasksBenchModule);
}

/** A 2026-07-28 request: its body and the headers its body decides. */
function request(id, method, params, name, extension) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': extension
      ? { extensions: { [TASKS]: {} } }
      : {},
  };
  return {
    path: '/mcp',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: AUTHORIZATION,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: meta },
    }),
  };
}

const call = (id, extension) =>
  request(
    id,
    'tools/call',
    { name: 'items_list', arguments: ARGUMENTS },
    'items_list',
    extension,
  );

/** Sends one request; the JSON-RPC result, or throws. */
async function send(pool, req) {
  const { statusCode, body } = await pool.request(req);
  const answer = await body.json();
  if (statusCode !== 200 || !answer.result)
    throw new Error(`${statusCode}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.result;
}

/** Throws unless `result` is the tool's result: ten items, no error. */
function checkResult(result) {
  const items = result?.structuredContent?.items;
  if (result?.isError || items?.length !== 10)
    throw new Error(`wrong result: ${JSON.stringify(result).slice(0, 300)}`);
}

/** One plain call, checked; resolves to the requests it took (1). */
async function plainCall(pool, id) {
  const result = await send(pool, call(id, false));
  if (result.resultType !== 'complete')
    throw new Error(`not a plain result: ${result.resultType}`);
  checkResult(result);
  return 1;
}

/** One task, created then polled until completed; the requests it took. */
async function taskCall(pool, id) {
  const created = await send(pool, call(id, true));
  if (created.resultType !== 'task')
    throw new Error(`not a task: ${JSON.stringify(created).slice(0, 300)}`);
  for (let requests = 2; ; requests++) {
    const task = await send(
      pool,
      request(
        id,
        'tasks/get',
        { taskId: created.taskId },
        created.taskId,
        true,
      ),
    );
    if (task.status === 'completed') {
      checkResult(task.result);
      return requests;
    }
    if (task.status !== 'working')
      throw new Error(`task ${task.status}: ${JSON.stringify(task)}`);
  }
}

/** `CONCURRENCY` loops of `one` for `seconds`; per call completed: requests and server CPU. */
async function measure(running, pool, one, seconds) {
  const cpuBefore = await running.cpu();
  const started = performance.now();
  const until = started + seconds * 1000;
  let calls = 0;
  let requests = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < until) {
        const took = await one(pool, `${worker}-${calls}`);
        requests += took;
        calls += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuUs = ((await running.cpu()) - cpuBefore) / calls;
  return {
    perSecond: calls / elapsed,
    requestsPerCall: requests / calls,
    cpuUs,
  };
}

/** Two instances on one BullMQ queue: a pool sending to each in turn, their CPU summed. */
async function startPair(queue) {
  const env = { BENCH_TASKS_SERVE: '1', BENCH_TASKS_QUEUE: queue };
  const servers = await Promise.all([
    startServer(FILE, { env }),
    startServer(FILE, { env }),
  ]);
  const pools = servers.map(
    (server) =>
      new Pool(`http://127.0.0.1:${server.port}`, {
        connections: CONCURRENCY,
        pipelining: 1,
      }),
  );
  let next = 0;
  return {
    running: {
      cpu: async () =>
        (await Promise.all(servers.map((server) => server.cpu()))).reduce(
          (sum, cpu) => sum + cpu,
          0,
        ),
    },
    pool: { request: (req) => pools[next++ % 2].request(req) },
    close: async () => {
      await Promise.all(pools.map((pool) => pool.close()));
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}

async function main() {
  const redis = Boolean(process.env.REDIS_URL);
  const loads = [
    { id: 'plain', label: 'plain tools/call', one: plainCall },
    { id: 'task', label: 'task: tools/call + tasks/get polls', one: taskCall },
    ...(redis
      ? [
          {
            id: 'redis',
            label: 'task on two instances (BullMQ, Redis)',
            one: taskCall,
            pair: true,
          },
        ]
      : []),
  ];
  log(`bench tasks: ${machineLine(machineInfo())}`);
  const samples = { plain: [], task: [], redis: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const running = await startServer(FILE, {
      env: { BENCH_TASKS_SERVE: '1' },
    });
    const pool = new Pool(`http://127.0.0.1:${running.port}`, {
      connections: CONCURRENCY,
      pipelining: 1,
    });
    const pair = redis
      ? await startPair(`bench-tasks-${process.pid}-${round}`)
      : undefined;
    const on = (each) =>
      each.pair ? [pair.running, pair.pool] : [running, pool];
    try {
      for (const each of loads)
        await measure(...on(each), each.one, WARMUP_SECONDS);
      const order = round % 2 ? [...loads].reverse() : loads;
      for (const each of order) {
        const sample = await measure(...on(each), each.one, SECONDS);
        samples[each.id].push(sample);
        log(
          `round ${round + 1}/${ROUNDS} ${each.id.padEnd(5)} ${sample.perSecond.toFixed(0)}/s, ${sample.requestsPerCall.toFixed(2)} requests each, server CPU ${sample.cpuUs.toFixed(0)} µs each`,
        );
      }
    } finally {
      await pool.close();
      await running.stop();
      await pair?.close();
    }
  }
  const ratios = (key, load = 'task') =>
    samples[load].map((s, i) => s[key] / samples.plain[i][key]);
  const summary = (values) => ({
    median: median(values),
    range: [Math.min(...values), Math.max(...values)],
  });
  const rows = loads.map((each) => ({
    load: each.label,
    perSecond: median(samples[each.id].map((s) => s.perSecond)),
    requestsPerCall: median(samples[each.id].map((s) => s.requestsPerCall)),
    cpuUs: median(samples[each.id].map((s) => s.cpuUs)),
  }));
  const ratio = {
    perSecond: summary(ratios('perSecond')),
    cpuUs: summary(ratios('cpuUs')),
    ...(redis
      ? {
          redisPerSecond: summary(ratios('perSecond', 'redis')),
          redisCpuUs: summary(ratios('cpuUs', 'redis')),
        }
      : {}),
  };
  const x = (n) => `${n.toFixed(2)}x`;
  console.log(
    `\n${CONCURRENCY} under way, ${ROUNDS} rounds of ${SECONDS} s (plain and task: one instance, memory engine):\n`,
  );
  console.log('| load | completed/s | requests each | server CPU µs each |');
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.load} | ${r.perSecond.toFixed(0)} | ${r.requestsPerCall.toFixed(2)} | ${r.cpuUs.toFixed(0)} |`,
    );
  console.log(
    `\ntask path / plain call: completed/s ${x(ratio.perSecond.median)} (${x(ratio.perSecond.range[0])} to ${x(ratio.perSecond.range[1])}), server CPU each ${x(ratio.cpuUs.median)} (${x(ratio.cpuUs.range[0])} to ${x(ratio.cpuUs.range[1])})`,
  );
  if (redis) {
    console.log(
      `two instances on Redis / plain call on one: completed/s ${x(ratio.redisPerSecond.median)} (${x(ratio.redisPerSecond.range[0])} to ${x(ratio.redisPerSecond.range[1])}), server CPU each ${x(ratio.redisCpuUs.median)} (${x(ratio.redisCpuUs.range[0])} to ${x(ratio.redisCpuUs.range[1])})`,
    );
  } else {
    log('two instances on Redis: skipped (set REDIS_URL)');
  }
  const out = process.env.BENCH_OUT ?? join(BENCH, 'results');
  mkdirSync(out, { recursive: true });
  const file = join(
    out,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-tasks.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        machine: machineInfo(),
        rounds: ROUNDS,
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        rows,
        ratio,
        samples,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nresults: ${relative(process.cwd(), file)}`);
}

if (process.env.BENCH_TASKS_SERVE === '1') {
  await serve();
} else {
  await main();
}
