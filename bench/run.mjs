// The benchmark harness (issue 13). Every server runs in its own process,
// one at a time (perCaller: two side by side); the load generator (autocannon) runs here, never in a
// server's process. Sections:
//   compare  the same small operation (API-key guard, DTO validation, 10
//            items from memory) through a plain Nest route (the baseline),
//            this library's tools/call, @rekog/mcp-nest, the SDK's
//            McpServer and a bare node:http server, in rotated order over
//            several rounds; median req/s, p50/p99, ratio to the baseline
//   scale    this library with 1 and with N (1,000) operations and DTO
//            classes, nestjs-i18n in en-US and zh-CN: startup, a call's
//            throughput, tools/list in both languages (throughput and
//            single-connection latency), ping
//   perCaller tools/list per caller (toolListPerCaller) against the whole
//            list, 1,000 operations, the same authGuard, both servers at
//            once, short loads alternating over `listPairs` pairs
//   stdio    pipelined tools/call lines per second through runCli's `mcp`;
//            the sample's stdio host (dist/src/cli.js mcp): spawn to its
//            first answer against `node -e 0` in the same rounds, and where
//            its start goes (BENCH_STDIO_BEFORE=<an earlier build's
//            dist/src/cli.js> adds that build, for a before and after;
//            BENCH_STDIO_BEFORE_CACHE=1 gives it the compile cache)
//   stdioStart  that start alone, without the pipelined calls
//   memory   RSS after 1,000 and after 100,000 calls
//   profile  CPU profiles of the library's call, list and startup (full run)
//   legacy   bench/mcp-vs-rest.mjs, slow-readers.mjs, unit-of-work.mjs
// Results go to bench/results/<date>.json (BENCH_OUT=<dir> elsewhere); a
// full run also rewrites the results part of bench/README.md.
//
//   node bench/run.mjs          full (~9 min; `npm run bench` builds first)
//   node bench/run.mjs --quick  short (~2.5 min; or BENCH_QUICK=1), README untouched
//   node bench/run.mjs --smoke  tiny (or BENCH_SMOKE=1), for test/sample/bench-smoke.e2e-spec.ts
//   BENCH_ONLY=compare,scale    only those sections
//   node bench/run.mjs --render bench/results/<file>.json   README from a run
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load, loadBytes, probeLatency } from './lib/load.mjs';
import { INITIALIZE, processCpuUs, stdioRun } from './lib/stdio-run.mjs';
import { machineInfo, machineLine } from './lib/machine.mjs';
import { summarizeProfile } from './lib/profile.mjs';
import { renderMarkdown, renderText } from './lib/report.mjs';
import {
  AUTHORIZATION,
  NESTOPS_HTTP,
  NESTOPS_STDIO,
  STDIO_SCRIPTS,
  PROTOCOL_VERSION,
  SERVERS,
  rpc,
  startServer,
  verify,
} from './lib/servers.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH);
const { writeCatalogue } = createRequire(import.meta.url)(
  './servers/many-operations.cjs',
);

const flag = (name) => process.argv.includes(`--${name}`);
const MODE =
  process.env.BENCH_SMOKE || flag('smoke')
    ? 'smoke'
    : process.env.BENCH_QUICK || flag('quick')
      ? 'quick'
      : 'full';

const PROFILES = {
  full: {
    rounds: 7,
    warmup: 2,
    duration: 5,
    scaleRounds: 3,
    listWarmup: 1,
    listDuration: 2,
    probeCount: 400,
    operations: 1000,
    stdioLines: 20_000,
    stdioWarmup: 2_000,
    stdioRounds: 3,
    startupRounds: 9,
    memoryCalls: [1_000, 10_000, 100_000],
    listPairs: 12,
    sections: [
      'compare',
      'scale',
      'perCaller',
      'stdio',
      'memory',
      'profile',
      'legacy',
    ],
  },
  quick: {
    rounds: 2,
    warmup: 1,
    duration: 2,
    scaleRounds: 1,
    listWarmup: 1,
    listDuration: 2,
    probeCount: 200,
    operations: 1000,
    stdioLines: 5_000,
    stdioWarmup: 1_000,
    stdioRounds: 2,
    startupRounds: 5,
    memoryCalls: [1_000, 10_000],
    listPairs: 4,
    sections: ['compare', 'scale', 'perCaller', 'stdio', 'memory', 'legacy'],
  },
  // Request counts instead of durations: as short as the machine allows.
  smoke: {
    rounds: 1,
    warmupAmount: 0,
    amount: 200,
    scaleRounds: 1,
    listAmount: 50,
    probeCount: 10,
    operations: 20,
    // Enough that each server's CPU time spans several of /proc's 10 ms ticks.
    stdioLines: Number(process.env.BENCH_STDIO_LINES ?? 1_000),
    stdioWarmup: 0,
    stdioRounds: 1,
    startupRounds: 1,
    memoryCalls: [100, 300],
    connections: 10,
    sections: ['compare', 'scale', 'stdio', 'memory'],
  },
};
const config = { connections: 50, ...PROFILES[MODE] };
if (process.env.BENCH_ONLY)
  config.sections = process.env.BENCH_ONLY.split(',').map((s) => s.trim());

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const OUT = process.env.BENCH_OUT ?? join(BENCH, 'results');
mkdirSync(OUT, { recursive: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const log = (...args) => console.error(...args);

/** Rotates `list` left by `by`. */
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/**
 * A warm-up then a measured load of `running` (a started server), by
 * duration or (smoke) request count, with autocannon or (`bytes`, for large
 * answers) undici; the result also has `cpuUs`, the server's CPU time
 * (user + system) per request of the measured load.
 */
async function warmAndLoad(
  running,
  req,
  { warm = config.warmup, dur, bytes = false } = {},
) {
  const run = bytes ? loadBytes : load;
  const connections = config.connections;
  const [warmup, measured] = config.amount
    ? [
        config.warmupAmount && { amount: config.warmupAmount },
        { amount: dur ?? config.amount },
      ]
    : [warm && { duration: warm }, { duration: dur ?? config.duration }];
  if (warmup) await run(running.port, req, { connections, ...warmup });
  const cpuBefore = await running.cpu();
  const result = await run(running.port, req, { connections, ...measured });
  const cpuUs = ((await running.cpu()) - cpuBefore) / result.requests;
  return { ...result, cpuUs };
}

function assertClean(what, result) {
  if (result.errors || result.non2xx || result.timeouts)
    throw new Error(
      `${what}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
}

// ---------------------------------------------------------------- compare

async function compare() {
  const samples = Object.fromEntries(SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < config.rounds; round++) {
    for (const server of rotate(SERVERS, round)) {
      const running = await startServer(server.script);
      try {
        await verify(server, running.port);
        const result = await warmAndLoad(running, server.request);
        assertClean(server.id, result);
        await verify(server, running.port); // still right under load
        samples[server.id].push({ round, ...result });
        log(
          `compare round ${round + 1}/${config.rounds} ${server.id.padEnd(10)} ${result.rps.toFixed(0)} req/s p50 ${result.p50} ms p99 ${result.p99} ms, server CPU ${result.cpuUs.toFixed(0)} µs/request`,
        );
      } finally {
        await running.stop();
      }
    }
  }
  const base = samples[SERVERS[0].id];
  const rows = SERVERS.map((server) => {
    const runs = samples[server.id];
    const ratios = runs.map((run, i) => run.rps / base[i].rps);
    return {
      id: server.id,
      label: server.label,
      checked: true,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      cpuUs: median(runs.map((r) => r.cpuUs)),
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
      rounds: runs,
    };
  });
  return {
    connections: config.connections,
    rounds: config.rounds,
    ...(config.amount
      ? { requestsPerRound: config.amount }
      : { warmupSeconds: config.warmup, seconds: config.duration }),
    protocolVersion: PROTOCOL_VERSION,
    rows,
  };
}

// ---------------------------------------------------------------- scale

const LIST = (language) => ({
  path: '/mcp',
  headers: {
    ...NESTOPS_HTTP.request.headers,
    'accept-language': language,
  },
  body: rpc(2, 'tools/list'),
});
const PING = {
  path: '/mcp',
  headers: NESTOPS_HTTP.request.headers,
  body: rpc(3, 'ping'),
};
const TITLES = { 'en-US': 'List items', 'zh-CN': '列出商品' };

/** Throws unless a tools/list answer has `count` tools, titled in `language`. */
const listCheck = (count, language) => (body) => {
  const tools = JSON.parse(body).result?.tools;
  if (tools?.length !== count)
    throw new Error(`tools/list: ${tools?.length} tools, not ${count}`);
  const items = tools.find((tool) => tool.name === 'items_list');
  if (items?.title !== TITLES[language])
    throw new Error(`tools/list ${language}: title ${items?.title}`);
};

/**
 * The apps the scale section compares: 1 operation; N operations with a
 * DTO class each (N distinct DTO classes); N operations of which the N - 1
 * generated ones share one input and one output DTO class.
 */
const SCALE_VARIANTS = (n) => [
  { key: 'one', operations: 1, env: {} },
  { key: 'many', operations: n, env: {} },
  { key: 'shared', operations: n, env: { BENCH_SHARED: '1' } },
];

async function scale(catalogue) {
  const variants = SCALE_VARIANTS(config.operations);
  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  for (let round = 0; round < config.scaleRounds; round++) {
    for (const { key, operations, env } of rotate(variants, round)) {
      const running = await startServer(NESTOPS_HTTP.script, {
        env: { BENCH_OPS: String(operations), BENCH_I18N: catalogue, ...env },
      });
      try {
        const sample = {
          round,
          bootMs: running.ready.bootMs,
          readyMs: running.ready.sinceProcessStartMs,
          startCpuMs: running.ready.cpuMs,
          wallMs: running.wallMs,
          generatedMs: running.ready.generatedMs,
          list: {},
        };
        await verify(NESTOPS_HTTP, running.port);
        for (const language of Object.keys(TITLES)) {
          const check = listCheck(operations, language);
          const answer = await verify(
            NESTOPS_HTTP,
            running.port,
            LIST(language),
            (a) => check(a.body),
          );
          sample.list[language] = { bytes: Buffer.byteLength(answer.body) };
        }
        sample.call = await warmAndLoad(running, NESTOPS_HTTP.request);
        assertClean(`call with ${operations} operations`, sample.call);
        // Answers of hundreds of kB: undici, bodies counted as bytes.
        const listOptions = {
          warm: config.listWarmup,
          dur: config.amount ? config.listAmount : config.listDuration,
          bytes: true,
        };
        for (const language of Object.keys(TITLES)) {
          const through = await warmAndLoad(
            running,
            LIST(language),
            listOptions,
          );
          assertClean(`tools/list ${language}`, through);
          const latency = await probeLatency(running.port, LIST(language), {
            count: config.probeCount,
            check: listCheck(operations, language),
          });
          Object.assign(sample.list[language], {
            rps: through.rps,
            p50: through.p50,
            p99: through.p99,
            cpuUs: through.cpuUs,
            latency,
          });
        }
        sample.ping = await warmAndLoad(running, PING, listOptions);
        sample.ping.latency = await probeLatency(running.port, PING, {
          count: config.probeCount,
        });
        samples[key].push(sample);
        log(
          `scale round ${round + 1}/${config.scaleRounds} ${key} ops=${operations} startup CPU ${sample.startCpuMs.toFixed(0)} ms, boot ${sample.bootMs.toFixed(0)} ms, call ${sample.call.rps.toFixed(0)} req/s, ` +
            `list en ${sample.list['en-US'].rps.toFixed(0)} req/s (${(sample.list['en-US'].bytes / 1024).toFixed(0)} kB) zh ${sample.list['zh-CN'].rps.toFixed(0)} req/s, ping ${sample.ping.rps.toFixed(0)} req/s`,
        );
      } finally {
        await running.stop();
      }
    }
  }
  const summary = (runs) => ({
    bootMs: median(runs.map((r) => r.bootMs)),
    startCpuMs: median(runs.map((r) => r.startCpuMs)),
    readyMs: median(runs.map((r) => r.readyMs)),
    wallMs: median(runs.map((r) => r.wallMs)),
    generatedMs: median(runs.map((r) => r.generatedMs)),
    callRps: median(runs.map((r) => r.call.rps)),
    callCpuUs: median(runs.map((r) => r.call.cpuUs)),
    callP50: median(runs.map((r) => r.call.p50)),
    callP99: median(runs.map((r) => r.call.p99)),
    pingRps: median(runs.map((r) => r.ping.rps)),
    pingCpuUs: median(runs.map((r) => r.ping.cpuUs)),
    pingP50: median(runs.map((r) => r.ping.p50)),
    pingLatencyP50: median(runs.map((r) => r.ping.latency.p50)),
    list: Object.fromEntries(
      Object.keys(TITLES).map((language) => {
        const of = (pick) => median(runs.map((r) => pick(r.list[language])));
        return [
          language,
          {
            bytes: of((l) => l.bytes),
            rps: of((l) => l.rps),
            p50: of((l) => l.p50),
            p99: of((l) => l.p99),
            cpuUs: of((l) => l.cpuUs),
            latencyP50: of((l) => l.latency.p50),
            latencyP99: of((l) => l.latency.p99),
          },
        ];
      }),
    ),
  });
  const { one, many, shared } = samples;
  /** Median of the rounds' differences to the 1-operation app. */
  const delta = (runs, pick) =>
    median(runs.map((r, i) => pick(r) - pick(one[i])));
  return {
    operations: config.operations,
    rounds: config.scaleRounds,
    connections: config.connections,
    probeCount: config.probeCount,
    one: summary(one),
    many: summary(many),
    shared: summary(shared),
    startCpuDeltaMs: delta(many, (r) => r.startCpuMs),
    sharedStartCpuDeltaMs: delta(shared, (r) => r.startCpuMs),
    sharedStartupDeltaMs: delta(shared, (r) => r.bootMs),
    startupDeltaMs: median(many.map((r, i) => r.bootMs - one[i].bootMs)),
    readyDeltaMs: median(many.map((r, i) => r.readyMs - one[i].readyMs)),
    callRatio: median(many.map((r, i) => r.call.rps / one[i].call.rps)),
    callCpuRatio: median(many.map((r, i) => r.call.cpuUs / one[i].call.cpuUs)),
    samples,
  };
}

// ---------------------------------------------------------------- perCaller

/**
 * tools/list per caller (issue 24) against the whole list, side by side:
 * the same app with 1,000 operations and the same API-key `authGuard`, one
 * server with `toolListPerCaller` and one without, both running at once;
 * short loads alternate between them (and between the languages) for
 * `listPairs` rounds, so that both meet the same moments of a shared
 * machine's load. Each pair gives a ratio of requests/s and of server CPU
 * per request (the whole list's over the filtered one's: above 1 is the
 * filtered list cheaper); the medians are the figures. The caller holds
 * every permission, so both answers hold the same 1,000 tools.
 */
async function perCaller(catalogue) {
  const start = (env) =>
    startServer(NESTOPS_HTTP.script, {
      env: {
        BENCH_OPS: String(config.operations),
        BENCH_I18N: catalogue,
        ...env,
      },
    });
  const whole = await start({ BENCH_AUTH_GUARD: '1' });
  const filtered = await start({ BENCH_PER_CALLER: '1' });
  try {
    for (const running of [whole, filtered]) {
      await verify(NESTOPS_HTTP, running.port);
      for (const language of Object.keys(TITLES)) {
        const check = listCheck(config.operations, language);
        await verify(NESTOPS_HTTP, running.port, LIST(language), (a) =>
          check(a.body),
        );
      }
    }
    const options = {
      warm: config.listWarmup,
      dur: config.amount ? config.listAmount : config.listDuration,
      bytes: true,
    };
    const pairs = Object.fromEntries(
      Object.keys(TITLES).map((language) => [language, []]),
    );
    for (let round = 0; round < config.listPairs; round++) {
      for (const language of Object.keys(TITLES)) {
        // Alternate which goes first, so neither always follows the other.
        const order = round % 2 ? [filtered, whole] : [whole, filtered];
        const measured = new Map();
        for (const running of order) {
          const result = await warmAndLoad(running, LIST(language), options);
          assertClean(`tools/list ${language}`, result);
          measured.set(running, result);
        }
        const w = measured.get(whole);
        const f = measured.get(filtered);
        pairs[language].push({
          wholeRps: w.rps,
          filteredRps: f.rps,
          wholeCpuUs: w.cpuUs,
          filteredCpuUs: f.cpuUs,
        });
        log(
          `perCaller pair ${round + 1}/${config.listPairs} ${language}: whole ${w.rps.toFixed(0)} req/s ${w.cpuUs.toFixed(0)} µs CPU, per caller ${f.rps.toFixed(0)} req/s ${f.cpuUs.toFixed(0)} µs CPU`,
        );
      }
    }
    const by = (of) =>
      Object.fromEntries(
        Object.entries(pairs).map(([language, list]) => [
          language,
          median(list.map(of)),
        ]),
      );
    return {
      operations: config.operations,
      pairs: config.listPairs,
      samples: pairs,
      /** Medians of the pairs' requests/s ratios (per caller over whole list). */
      rpsRatio: by((p) => p.filteredRps / p.wholeRps),
      /** Medians of the pairs' CPU per request ratios (whole list over per caller). */
      cpuRatio: by((p) => p.wholeCpuUs / p.filteredCpuUs),
      rpsRange: Object.fromEntries(
        Object.entries(pairs).map(([language, list]) => {
          const ratios = list.map((p) => p.filteredRps / p.wholeRps);
          return [language, [Math.min(...ratios), Math.max(...ratios)]];
        }),
      ),
    };
  } finally {
    await filtered.stop();
    await whole.stop();
  }
}

// ---------------------------------------------------------------- stdio

/** The stdio servers, baseline (the SDK v1 stdio server) first. */
const STDIO_SERVERS = [
  {
    id: 'sdk-v1',
    label: 'SDK v1 stdio server',
    args: [STDIO_SCRIPTS.sdkV1],
  },
  {
    id: 'sdk-v2',
    label: 'SDK v2 stdio server',
    args: [STDIO_SCRIPTS.sdkV2],
  },
  {
    id: 'nestops',
    label: '@nestops/mcp stdio host (runCli mcp)',
    args: [NESTOPS_STDIO, 'mcp', '--authorization', AUTHORIZATION],
    env: { BENCH_OPS: '1' },
  },
];

/** The 2026 greeting: what a 2026 client sends first. */
const SERVER_DISCOVER = rpc(0, 'server/discover', {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  },
});

/** The sample's command line, as an MCP client starts it. */
const SAMPLE_CLI = join(ROOT, 'dist/src/cli.js');
const STARTUP_MARKS = join(BENCH, 'lib/startup-marks.cjs');

/**
 * One spawn: `args` started with `initialize` already written to its stdin;
 * resolves with the milliseconds from spawn to its first line on stdout
 * (or to its exit, for `node -e 0`), its CPU time by then, and the phase
 * marks of bench/lib/startup-marks.cjs when it was loaded.
 */
async function firstAnswerRun(args, env, answers = true, first = INITIALIZE) {
  const marksFile = join(startupDir, `marks-${process.pid}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, BENCH_MARKS: marksFile, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.stdin.on('error', () => undefined);
  child.stdin.write(`${first}\n`);
  let ms;
  let cpuUs;
  if (answers) {
    const line = await Promise.race([
      new Promise((resolve) => {
        let text = '';
        child.stdout.on('data', (chunk) => {
          if (ms === undefined) {
            ms = performance.now() - started;
            cpuUs = processCpuUs(child.pid);
          }
          text += chunk;
          if (text.includes('\n')) resolve(text.split('\n')[0]);
        });
      }),
      exited.then((code) => {
        throw new Error(`${args.join(' ')} exited with ${code}\n${stderr}`);
      }),
    ]);
    // serverInfo: initialize's result, or the _meta of server/discover's.
    if (!line.includes('serverInfo"'))
      throw new Error(`not a greeting's answer: ${line.slice(0, 300)}`);
    child.stdin.end();
  } else {
    child.stdin.end();
  }
  await exited;
  if (ms === undefined) {
    ms = performance.now() - started;
    cpuUs = 0;
  }
  let marks;
  if (args.includes(STARTUP_MARKS)) {
    marks = JSON.parse(readFileSync(marksFile, 'utf8'));
  }
  return { ms, cpuMs: cpuUs / 1000, marks };
}

let startupDir;

/**
 * Spawn to the first answer of the sample's stdio host (`initialize`, on
 * SQLite in a fresh folder), against `node -e 0` in the same rounds, in
 * rotated order: with Node's compile cache warm (as every start but the
 * first), with it off (NODE_DISABLE_COMPILE_CACHE=1), and BENCH_STDIO_BEFORE
 * when set; then the phases of the warm start, with startup-marks.cjs.
 */
async function firstAnswer() {
  startupDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const env = {
    SQLITE_PATH: join(startupDir, 'orders.sqlite'),
    NODE_COMPILE_CACHE: join(startupDir, 'compile-cache'),
  };
  const variants = [
    { id: 'node', label: 'node -e 0', args: ['-e', '0'], answers: false },
    { id: 'host', label: 'sample stdio host', args: [SAMPLE_CLI, 'mcp'] },
    // The smoke run (in `npm test`) spawns the host twice, no more.
    ...(MODE === 'smoke'
      ? []
      : [
          {
            id: 'host-nocache',
            label: 'sample stdio host, compile cache off',
            args: [SAMPLE_CLI, 'mcp'],
            env: { NODE_DISABLE_COMPILE_CACHE: '1' },
          },
          {
            id: 'host-discover',
            label: 'sample stdio host, server/discover',
            args: [SAMPLE_CLI, 'mcp'],
            first: SERVER_DISCOVER,
          },
        ]),
  ];
  if (process.env.BENCH_STDIO_BEFORE)
    variants.push({
      id: 'before',
      label: `before (${relative(ROOT, process.env.BENCH_STDIO_BEFORE)})`,
      args: [process.env.BENCH_STDIO_BEFORE, 'mcp'],
      // NODE_COMPILE_CACHE alone turns the cache on: off for a build from
      // before src/compile-cache.ts, unless BENCH_STDIO_BEFORE_CACHE=1 (a
      // build that turns it on itself).
      env:
        process.env.BENCH_STDIO_BEFORE_CACHE === '1'
          ? {}
          : { NODE_DISABLE_COMPILE_CACHE: '1' },
    });
  // The database's migrations and the compile cache, once, unmeasured.
  if (MODE !== 'smoke')
    for (const v of variants.slice(1))
      await firstAnswerRun(v.args, { ...env, ...v.env });
  const samples = Object.fromEntries(variants.map((v) => [v.id, []]));
  for (let round = 0; round < config.startupRounds; round++)
    for (const v of rotate(variants, round))
      samples[v.id].push(
        await firstAnswerRun(v.args, { ...env, ...v.env }, v.answers, v.first),
      );
  const phases = [];
  for (let round = 0; round < config.startupRounds; round++)
    phases.push(
      (
        await firstAnswerRun(
          ['--require', STARTUP_MARKS, SAMPLE_CLI, 'mcp'],
          env,
        )
      ).marks,
    );
  const m = (pick) => median(phases.map(pick));
  // A host that answers before it loads the app (runCli's loader form)
  // writes its first answer after `modules` (its small entry) and before
  // TypeORM: then the app's phases come after the answer, and the app is
  // ready about when TypeORM is.
  const breakdown = {
    node: m((p) => p.preload),
    modules: m((p) => p.modules - p.preload),
    answer: m((p) =>
      Math.max(0, Math.min(p.firstAnswer, p.typeormStart) - p.modules),
    ),
    nestBeforeTypeorm: m(
      (p) =>
        p.typeormStart -
        Math.max(p.modules, Math.min(p.firstAnswer, p.typeormStart)),
    ),
    typeorm: m(
      (p) =>
        p.typeormEnd - p.typeormStart - (p.migrationsEnd - p.migrationsStart),
    ),
    migrations: m((p) => p.migrationsEnd - p.migrationsStart),
    nestAfterTypeorm: m((p) => Math.max(0, p.firstAnswer - p.typeormEnd)),
    firstAnswer: m((p) => p.firstAnswer),
    typeormEnd: m((p) => p.typeormEnd),
    early: phases.every((p) => p.firstAnswer < p.typeormStart),
  };
  const node = median(samples.node.map((r) => r.ms));
  const rows = variants.map((v) => {
    const ms = samples[v.id].map((r) => r.ms);
    return {
      id: v.id,
      label: v.label,
      ms: median(ms),
      msMin: Math.min(...ms),
      msMax: Math.max(...ms),
      overNodeMs: median(
        samples[v.id].map((r, i) => r.ms - samples.node[i].ms),
      ),
      cpuMs: median(samples[v.id].map((r) => r.cpuMs)),
    };
  });
  for (const row of rows)
    log(
      `stdio first answer: ${row.label.padEnd(38)} median ${row.ms.toFixed(0)} ms ` +
        `(${row.msMin.toFixed(0)}-${row.msMax.toFixed(0)}; ${row.overNodeMs.toFixed(0)} ms over node -e 0), CPU ${row.cpuMs.toFixed(0)} ms`,
    );
  log(
    `stdio first answer, where the time goes (median ms): node ${breakdown.node.toFixed(0)}, ` +
      `modules ${breakdown.modules.toFixed(0)}, ${breakdown.early ? `the answer ${breakdown.answer.toFixed(0)} (before the app), then ` : ''}Nest before TypeORM ${breakdown.nestBeforeTypeorm.toFixed(0)}, ` +
      `TypeORM ${breakdown.typeorm.toFixed(0)}, migrations ${breakdown.migrations.toFixed(0)}, ` +
      `Nest after TypeORM ${breakdown.nestAfterTypeorm.toFixed(0)}`,
  );
  return {
    rounds: config.startupRounds,
    node: process.version,
    nodeMs: node,
    rows,
    breakdown,
  };
}

/** `BENCH_ONLY=stdioStart`: the stdio host's start alone. */
function stdioStart() {
  return firstAnswer();
}

async function stdio() {
  const options = {
    calls: config.stdioLines,
    warmup: config.stdioWarmup,
    inFlight: 64,
  };
  const samples = Object.fromEntries(STDIO_SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < config.stdioRounds; round++) {
    for (const server of rotate(STDIO_SERVERS, round)) {
      const result = await stdioRun(server, options);
      samples[server.id].push({ round, ...result });
      log(
        `stdio round ${round + 1}/${config.stdioRounds} ${server.id.padEnd(8)} ${result.callsPerSecond.toFixed(0)} calls/s, ` +
          `server CPU ${result.cpuUs.toFixed(1)} µs/call, peak RSS ${mb(result.peakRss)}`,
      );
    }
  }
  const base = samples[STDIO_SERVERS[0].id];
  return {
    ...options,
    firstAnswer: await firstAnswer(),
    rounds: config.stdioRounds,
    rows: STDIO_SERVERS.map((server) => {
      const runs = samples[server.id];
      const cpuRatios = runs.map((run, i) => base[i].cpuUs / run.cpuUs);
      return {
        id: server.id,
        label: server.label,
        callsPerSecond: median(runs.map((r) => r.callsPerSecond)),
        cpuUs: median(runs.map((r) => r.cpuUs)),
        cpuRatio: median(cpuRatios),
        cpuRatioMin: Math.min(...cpuRatios),
        cpuRatioMax: Math.max(...cpuRatios),
        peakRssMin: Math.min(...runs.map((r) => r.peakRss)),
        peakRssMax: Math.max(...runs.map((r) => r.peakRss)),
        rounds: runs,
      };
    }),
  };
}

// ---------------------------------------------------------------- memory

async function memory() {
  const checkpoints = config.memoryCalls;
  const servers = [SERVERS[0], NESTOPS_HTTP];
  const result = { calls: checkpoints, servers: {} };
  for (const server of servers) {
    const running = await startServer(server.script, {
      flags: ['--expose-gc'],
    });
    try {
      await verify(server, running.port);
      const atStart = await running.memory();
      const after = [];
      let done = 1; // the verifying call
      for (const calls of checkpoints) {
        assertClean(
          `memory ${server.id}`,
          await load(running.port, server.request, {
            connections: config.connections,
            amount: calls - done,
          }),
        );
        done = calls;
        after.push({ calls, ...(await running.memory()) });
      }
      await verify(server, running.port);
      const [first, last] = [after[0], after[after.length - 1]];
      result.servers[server.id] = {
        label: server.label,
        atStart,
        after,
        rssRatio: last.rss / first.rss,
        heapUsedAfterGcRatio: last.heapUsedAfterGc / first.heapUsedAfterGc,
      };
      log(
        `memory ${server.id} RSS ${after.map((m) => `after ${m.calls} ${mb(m.rss)}`).join(', ')} (${(last.rss / first.rss).toFixed(2)}x); ` +
          `heap in use after GC ${mb(first.heapUsedAfterGc)} to ${mb(last.heapUsedAfterGc)}`,
      );
    } finally {
      await running.stop();
    }
  }
  return result;
}
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

// ---------------------------------------------------------------- profile

async function profile(catalogue) {
  const dir = join(OUT, 'profiles', stamp);
  mkdirSync(dir, { recursive: true });
  const result = {};
  // `run`: the load generator the figures of the same load use.
  const under = async (name, operations, req, run = load) => {
    const running = await startServer(NESTOPS_HTTP.script, {
      env: { BENCH_OPS: String(operations), BENCH_I18N: catalogue },
    });
    try {
      await run(running.port, req, {
        connections: config.connections,
        duration: config.warmup,
      });
      const path = join(dir, `${name}.cpuprofile`);
      await running.ask('profile-start');
      await run(running.port, req, {
        connections: config.connections,
        duration: config.duration,
      });
      await running.ask('profile-stop', { path });
      result[name] = { file: relative(ROOT, path), ...summarizeProfile(path) };
    } finally {
      await running.stop();
    }
  };
  await under('call-1-operation', 1, NESTOPS_HTTP.request);
  await under('call-1000-operations', config.operations, NESTOPS_HTTP.request);
  await under(
    'list-1000-operations-en',
    config.operations,
    LIST('en-US'),
    loadBytes,
  );
  // Startup: `node --cpu-prof` over a process that exits once listening.
  const running = await startServer(NESTOPS_HTTP.script, {
    env: { BENCH_OPS: String(config.operations), BENCH_I18N: catalogue },
    flags: [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '--cpu-prof-name=startup-1000-operations.cpuprofile',
    ],
  });
  await running.stop();
  const path = join(dir, 'startup-1000-operations.cpuprofile');
  result['startup-1000-operations'] = {
    file: relative(ROOT, path),
    ...summarizeProfile(path),
  };
  log(`profiles in ${relative(ROOT, dir)}`);
  return result;
}

// ---------------------------------------------------------------- legacy

async function legacy() {
  const quick = MODE === 'quick';
  const scripts = [
    ['mcp-vs-rest.mjs', quick ? { BENCH_ROUNDS: '3', BENCH_CALLS: '100' } : {}],
    ['slow-readers.mjs', quick ? { BENCH_SECONDS: '3' } : {}],
    [
      'unit-of-work.mjs',
      quick ? { BENCH_ROUNDS: '3', BENCH_CALLS: '500' } : {},
    ],
  ];
  const result = {};
  for (const [script, env] of scripts) {
    const child = spawn(process.execPath, [join(BENCH, script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`${script} exited with ${code}`);
    result[script] = output.trim().split('\n');
    log(output.trim());
  }
  return result;
}

// ---------------------------------------------------------------- targets

/** The range over the rounds of `other`'s CPU per request over `ours`. */
function cpuRange(ours, other) {
  const ratios = ours.rounds.map((run, i) => other.rounds[i].cpuUs / run.cpuUs);
  return `${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}`;
}

/** Each target of issues 13 and 21 with its figure and met / not met in this run. */
function targets(results) {
  const list = [];
  const add = (target, measured, met) => list.push({ target, measured, met });
  const { compare: c, scale: s, stdio: io, memory: m, perCaller: pc } = results;
  if (pc) {
    add(
      `issue 24: tools/list per caller with ${pc.operations} operations within 10% of the whole list's throughput (same authGuard, side by side)`,
      Object.keys(pc.rpsRatio)
        .map(
          (lang) =>
            `${lang} ${pc.rpsRatio[lang].toFixed(2)}x (pairs ${pc.rpsRange[lang].map((r) => r.toFixed(2)).join(' to ')}; CPU ${pc.cpuRatio[lang].toFixed(2)}x)`,
        )
        .join(', '),
      Object.values(pc.rpsRatio).every((ratio) => ratio >= 0.9),
    );
  }
  if (c) {
    const row = (id) => c.rows.find((r) => r.id === id);
    const ours = row('nestops');
    // The same comparison by the server's CPU time per request, round by round.
    const cpuRatio = median(
      ours.rounds.map((run, i) => c.rows[0].rounds[i].cpuUs / run.cpuUs),
    );
    add(
      'tools/call at least 0.95x the plain Nest route (median of the rounds)',
      `${ours.ratio.toFixed(2)}x (rounds ${ours.ratioMin.toFixed(2)} to ${ours.ratioMax.toFixed(2)}; by server CPU per request ${cpuRatio.toFixed(2)}x)`,
      ours.ratio >= 0.95,
    );
    add(
      'issue 21: tools/call at least 1.05x the plain Nest route by server CPU per request (median of the rounds)',
      `${cpuRatio.toFixed(2)}x (rounds ${cpuRange(ours, c.rows[0])})`,
      cpuRatio >= 1.05,
    );
    const peers = ['rekog', 'sdk'].map(row);
    const cpuVs = (peer) =>
      median(ours.rounds.map((run, i) => peer.rounds[i].cpuUs / run.cpuUs));
    add(
      'issue 21: tools/call at least 2x @rekog/mcp-nest and the SDK by server CPU per request',
      peers
        .map(
          (p) =>
            `${cpuVs(p).toFixed(2)}x ${p.label.split(' ')[0]} (rounds ${cpuRange(ours, p)})`,
        )
        .join(', '),
      peers.every((p) => cpuVs(p) >= 2),
    );
    add(
      'tools/call above every peer MCP server',
      peers
        .map(
          (p) => `${(ours.rps / p.rps).toFixed(2)}x ${p.label.split(' ')[0]}`,
        )
        .join(', '),
      peers.every((p) => ours.rps > p.rps),
    );
  }
  if (s) {
    const lists = Object.entries(s.many.list);
    add(
      `tools/list with ${s.operations} operations: p50 under 1 ms (one connection)`,
      lists
        .map(([lang, l]) => `${lang} ${l.latencyP50.toFixed(2)} ms`)
        .join(', '),
      lists.every(([, l]) => l.latencyP50 < 1),
    );
    add(
      `tools/list with ${s.operations} operations: at least 5x the issue's 289 req/s (1,445 req/s, ${s.connections} connections)`,
      lists
        .map(
          ([lang, l]) =>
            `${lang} ${l.rps.toFixed(0)} req/s (${(l.rps / 289).toFixed(1)}x)`,
        )
        .join(', '),
      lists.every(([, l]) => l.rps >= 5 * 289),
    );
    add(
      `issue 21: +${s.operations - 1} operations sharing one output DTO cost under 0.4 s of startup CPU`,
      `+${(s.sharedStartCpuDeltaMs / 1000).toFixed(2)} s (${(s.one.startCpuMs / 1000).toFixed(2)} s to ${(s.shared.startCpuMs / 1000).toFixed(2)} s)`,
      s.sharedStartCpuDeltaMs < 400,
    );
    add(
      `issue 21: ${s.operations} distinct DTO classes cost under 1 s more startup CPU than one operation`,
      `+${(s.startCpuDeltaMs / 1000).toFixed(2)} s (${(s.one.startCpuMs / 1000).toFixed(2)} s to ${(s.many.startCpuMs / 1000).toFixed(2)} s)`,
      s.startCpuDeltaMs < 1000,
    );
    add(
      `+${s.operations - 1} operations add under 0.5 s to startup (NestFactory.create to listening)`,
      `+${(s.startupDeltaMs / 1000).toFixed(2)} s (${(s.one.bootMs / 1000).toFixed(2)} s to ${(s.many.bootMs / 1000).toFixed(2)} s)`,
      s.startupDeltaMs < 500,
    );
    add(
      `a call with ${s.operations} DTO classes loaded at least 0.9x a call with one`,
      `${s.callRatio.toFixed(2)}x (server CPU per call ${s.callCpuRatio.toFixed(2)}x)`,
      s.callRatio >= 0.9,
    );
  }
  if (io) {
    const [v1, , ours] = ['sdk-v1', 'sdk-v2', 'nestops'].map((id) =>
      io.rows.find((r) => r.id === id),
    );
    add(
      `issue 21: stdio, ${io.inFlight} calls in flight, at least 1.0x the SDK v1 stdio server by server CPU per call (median of the rounds)`,
      `${ours.cpuRatio.toFixed(2)}x (rounds ${ours.cpuRatioMin.toFixed(2)} to ${ours.cpuRatioMax.toFixed(2)}; ${ours.cpuUs.toFixed(1)} against ${v1.cpuUs.toFixed(1)} µs)`,
      ours.cpuRatio >= 1,
    );
    add(
      `issue 21: stdio peak RSS within 1.3x of the SDK v1 stdio server's over ${io.rounds} runs`,
      `${mb(ours.peakRssMin)} to ${mb(ours.peakRssMax)} against ${mb(v1.peakRssMin)} to ${mb(v1.peakRssMax)} (${(ours.peakRssMax / v1.peakRssMax).toFixed(2)}x, highest to highest)`,
      ours.peakRssMax <= 1.3 * v1.peakRssMax,
    );
  }
  const start = io?.firstAnswer ?? results.stdioStart;
  if (start) {
    const { rows } = start;
    const host = rows.find((r) => r.id === 'host');
    const before = rows.find((r) => r.id === 'before');
    add(
      `issue 26: the sample's stdio host answers initialize within 400 ms of spawn (median of ${start.rounds} rounds, compile cache warm)`,
      `${host.ms.toFixed(0)} ms, ${(host.ms / start.nodeMs).toFixed(2)}x node -e 0 (${start.nodeMs.toFixed(0)} ms${before ? `; before ${before.ms.toFixed(0)} ms` : ''})`,
      host.ms <= 400,
    );
  }
  if (m) {
    const [first, last] = [m.calls[0], m.calls[m.calls.length - 1]];
    const growth = (id) => {
      const { after, rssRatio } = m.servers[id];
      const [a, b] = [after[0], after[after.length - 1]];
      const settled =
        after.length > 2
          ? `, from ${after[1].calls} calls on ${(b.rss / after[1].rss).toFixed(2)}x`
          : '';
      return `${mb(a.rss)} to ${mb(b.rss)} (${rssRatio.toFixed(2)}x${settled})`;
    };
    const ours = m.servers[NESTOPS_HTTP.id];
    add(
      `RSS after ${last} calls within 10% of RSS after ${first}`,
      `${growth(NESTOPS_HTTP.id)}; the plain Nest route ${growth(SERVERS[0].id)}`,
      ours.rssRatio <= 1.1,
    );
  }
  return list;
}

// ---------------------------------------------------------------- main

/** Rewrites the results part of bench/README.md from `results`. */
function writeReadme(results, file) {
  const readme = join(BENCH, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const START = '<!-- bench:results:start -->';
  const END = '<!-- bench:results:end -->';
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error('bench/README.md: no markers');
  writeFileSync(
    readme,
    text.slice(0, from + START.length) +
      '\n' +
      renderMarkdown(results, relative(BENCH, file)) +
      '\n' +
      text.slice(to),
  );
  console.log('bench/README.md: results updated');
}

// `--render <results.json>`: the README's results part from an earlier run.
const render = process.argv.indexOf('--render');
if (render >= 0) {
  const file = process.argv[render + 1];
  const results = JSON.parse(readFileSync(file, 'utf8'));
  results.targets = targets(results);
  writeReadme(results, file);
  process.exit(0);
}

const started = performance.now();
const machine = machineInfo();
log(`bench ${MODE}: ${machineLine(machine)}`);
const catalogue = mkdtempSync(join(tmpdir(), 'bench-i18n-'));
writeCatalogue(catalogue, config.operations);

const results = { mode: MODE, machine, config };
const sections = {
  compare,
  scale,
  perCaller,
  stdio,
  stdioStart,
  memory,
  profile,
  legacy,
};
for (const name of config.sections) {
  if (!sections[name]) throw new Error(`unknown section ${name}`);
  const at = performance.now();
  results[name] = await sections[name](catalogue);
  log(`${name}: ${((performance.now() - at) / 1000).toFixed(0)} s`);
}
results.targets = targets(results);
results.seconds = Math.round((performance.now() - started) / 1000);

const file = join(OUT, `${stamp}-${MODE}.json`);
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(renderText(results));
console.log(
  `\nresults: ${relative(process.cwd(), file)} (${results.seconds} s)`,
);

if (MODE === 'full' && process.env.BENCH_README !== '0')
  writeReadme(results, file);
