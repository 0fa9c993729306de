// What telemetry costs a `tools/call` (issue 25), in one run:
//
//   npm run bench:telemetry [-- <git revision>]   (node bench/telemetry.mjs)
//
// The one-operation app of nestops-app.cjs four ways, each a fresh process,
// in rotated order over the rounds: `@opentelemetry/api` absent
// (unresolvable, as where it is not installed: the baseline of the
// ratios), installed with no SDK registered (tracing off), the SDK
// registered with exporters that drop everything (on), and on with an
// audit sink that drops every event (bench/servers/otel-mode.cjs sets each
// up). Two sections (BENCH_ONLY=dispatch or http for one):
//
// - dispatch: `tools/call` through McpDispatcher in the process itself
//   (telemetry-dispatch.cjs: 5,000 calls of warm-up, then 30,000 with 16 in
//   flight), the process's CPU time per call: no HTTP and no load generator
//   sharing the machine's two cores, so the steadiest figure. With a git
//   revision (one from before telemetry, such as the main branch this was
//   built on), that revision's build is a fifth row, checked out and built
//   in a temporary worktree as bench/baseline.mjs does.
// - http: POST /mcp (nestops-http.cjs), 2 s of warm-up then 5 s at 50
//   connections (autocannon), req/s and the server's CPU per request.
//
// - paired: the finest figure, for the "within 2%" question. Two of the
//   dispatch processes at the same time, each pinned to a core of its own
//   (`taskset`), the pair's cores swapped every round, so that both see the
//   same machine: "package absent" beside "tracing off", and beside the
//   revision's build when one is given. BENCH_PAIR_ROUNDS rounds (16).
//
// Prints the median of each mode and the median of the rounds' ratios to
// "package absent" with their range; writes bench/results/<date>-telemetry.json.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { load } from './lib/load.mjs';
import { machineInfo, machineLine } from './lib/machine.mjs';
import { checkOutRevision, median } from './lib/revision.mjs';
import { NESTOPS_HTTP, startServer, verify } from './lib/servers.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const SERVERS = join(BENCH, 'servers');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ONLY = process.env.BENCH_ONLY?.split(',') ?? [
  'dispatch',
  'http',
  'paired',
];
const PAIR_ROUNDS = Number(process.env.BENCH_PAIR_ROUNDS ?? 16);
const WARMUP = { duration: 2 };
const MEASURED = { duration: 5 };
const CONNECTIONS = 50;
const log = (...args) => console.error(...args);

const MODES = [
  { id: 'package absent', env: { BENCH_OTEL: 'absent' } },
  { id: 'tracing off (API, no SDK)', env: { BENCH_OTEL: 'off' } },
  { id: 'tracing on (SDK, no-op exporters)', env: { BENCH_OTEL: 'on' } },
  {
    id: 'tracing on + audit sink',
    env: { BENCH_OTEL: 'on', BENCH_AUDIT: '1' },
  },
];

/** `revision` built in a worktree, with this bench's two servers copied in. */
function prepareBaseline(revision) {
  const checkout = checkOutRevision(revision, log);
  for (const file of ['telemetry-dispatch.cjs', 'otel-mode.cjs']) {
    copyFileSync(
      join(SERVERS, file),
      join(checkout.dir, 'bench', 'servers', file),
    );
  }
  return checkout;
}

/** One dispatch process's figures; on CPU `core` alone when given. */
async function dispatchSample(servers, env, core) {
  const node = [
    process.execPath,
    '-r',
    join(servers, 'otel-mode.cjs'),
    join(servers, 'telemetry-dispatch.cjs'),
  ];
  const [file, ...args] =
    core === undefined ? node : ['taskset', '-c', String(core), ...node];
  const { stdout } = await promisify(execFile)(file, args, {
    env: { ...process.env, BENCH_OPS: '1', ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/**
 * A 95% confidence interval of the median of `values` (independent
 * rounds): the order statistics n/2 ∓ 0.98·√n, as the sign test gives.
 */
function medianInterval(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const k = Math.max(
    0,
    Math.floor(sorted.length / 2 - 0.98 * Math.sqrt(sorted.length)),
  );
  return [sorted[k], sorted[sorted.length - 1 - k]];
}

/** The quartiles of `values`: [p25, p50, p75]. */
function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => {
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
  };
  return [at(0.25), at(0.5), at(0.75)];
}

/**
 * `row` and "package absent" run at once, on a core each, swapped every
 * round; the per-round ratios of `row` to absent.
 */
async function pairedSection(rows) {
  const absent = rows.find((row) => row.id === 'package absent');
  const out = [];
  for (const row of rows.filter((each) => each !== absent)) {
    const ratios = { cpuUs: [], wallUs: [] };
    for (let round = 0; round < PAIR_ROUNDS; round++) {
      const [a, b] = await Promise.all([
        dispatchSample(absent.servers, absent.env, round % 2),
        dispatchSample(row.servers, row.env, (round + 1) % 2),
      ]);
      for (const key of ['cpuUs', 'wallUs']) ratios[key].push(b[key] / a[key]);
      log(
        `paired round ${round + 1}/${PAIR_ROUNDS} ${row.id.padEnd(34)} cpu ${b.cpuUs.toFixed(1)} vs ${a.cpuUs.toFixed(1)} µs (${(b.cpuUs / a.cpuUs).toFixed(3)}x)`,
      );
    }
    out.push({
      mode: row.id,
      ratios,
      cpuUs: quartiles(ratios.cpuUs),
      wallUs: quartiles(ratios.wallUs),
      cpuUsMedianInterval: medianInterval(ratios.cpuUs),
      wallUsMedianInterval: medianInterval(ratios.wallUs),
    });
  }
  return out;
}

async function httpSample(env) {
  const running = await startServer(join(SERVERS, 'nestops-http.cjs'), {
    env: { BENCH_OPS: '1', ...env },
    flags: ['-r', join(SERVERS, 'otel-mode.cjs')],
  });
  try {
    const { request, check } = NESTOPS_HTTP;
    await verify(NESTOPS_HTTP, running.port, request, check);
    await load(running.port, request, { connections: CONNECTIONS, ...WARMUP });
    const before = await running.cpu();
    const result = await load(running.port, request, {
      connections: CONNECTIONS,
      ...MEASURED,
    });
    if (result.errors || result.non2xx || result.timeouts)
      throw new Error(`${JSON.stringify(env)}: errors under load`);
    const cpuUs = ((await running.cpu()) - before) / result.requests;
    await verify(NESTOPS_HTTP, running.port, request, check);
    return { rps: result.rps, cpuUs };
  } finally {
    await running.stop();
  }
}

/** Every row sampled once per round, in rotated order; their medians and ratios. */
async function section(name, rows, sample, keys) {
  const samples = rows.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < rows.length; k++) {
      const index = (k + round) % rows.length;
      const value = await sample(rows[index]);
      samples[index][round] = value;
      log(
        `${name} round ${round + 1}/${ROUNDS} ${rows[index].id.padEnd(34)} ${keys.map((key) => `${key} ${value[key].toFixed(1)}`).join(', ')}`,
      );
    }
  }
  const base = samples[rows.findIndex((row) => row.id === 'package absent')];
  return rows.map((row, index) => {
    const own = samples[index];
    const result = { mode: row.id, rounds: own };
    for (const key of keys) {
      const ratios = own.map((s, i) => s[key] / base[i][key]);
      result[key] = median(own.map((s) => s[key]));
      result[`${key}Ratio`] = median(ratios);
      result[`${key}Range`] = [Math.min(...ratios), Math.max(...ratios)];
    }
    return result;
  });
}

const x = (n) => `${n.toFixed(3)}x`;
const cell = (row, key, digits = 0) =>
  `${row[key].toFixed(digits)} | ${x(row[`${key}Ratio`])} (${x(row[`${key}Range`][0])} to ${x(row[`${key}Range`][1])})`;

log(`bench telemetry: ${machineLine(machineInfo())}`);
const revision = process.argv[2];
const baseline =
  revision && (ONLY.includes('dispatch') || ONLY.includes('paired'))
    ? prepareBaseline(revision)
    : undefined;
const results = { machine: machineInfo(), rounds: ROUNDS };
const rows = [
  ...MODES.map((mode) => ({ ...mode, servers: SERVERS })),
  ...(baseline
    ? [
        {
          id: `before telemetry (${baseline.commit.slice(0, 7)})`,
          env: { BENCH_OTEL: 'absent' },
          servers: join(baseline.dir, 'bench', 'servers'),
        },
      ]
    : []),
];
try {
  if (ONLY.includes('dispatch')) {
    results.dispatch = await section(
      'dispatch',
      rows,
      (row) => dispatchSample(row.servers, row.env),
      ['cpuUs', 'wallUs'],
    );
    console.log(
      `\ntools/call through McpDispatcher in process (30,000 calls, 16 in flight), ${ROUNDS} rounds; ratios to "package absent", median of the rounds (range):\n`,
    );
    console.log(
      '| telemetry | CPU µs/call | x absent | wall µs/call | x absent |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results.dispatch)
      console.log(
        `| ${r.mode} | ${cell(r, 'cpuUs', 1)} | ${cell(r, 'wallUs', 1)} |`,
      );
  }
  if (ONLY.includes('http')) {
    results.http = await section('http', MODES, (row) => httpSample(row.env), [
      'rps',
      'cpuUs',
    ]);
    console.log(
      `\ntools/call over HTTP (POST /mcp, 50 connections), ${ROUNDS} rounds; ratios to "package absent", median of the rounds (range):\n`,
    );
    console.log(
      '| telemetry | req/s | x absent | server CPU µs/request | x absent |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results.http)
      console.log(`| ${r.mode} | ${cell(r, 'rps')} | ${cell(r, 'cpuUs')} |`);
  }
  if (ONLY.includes('paired')) {
    const paired = rows.filter(
      (row) => !row.id.startsWith('tracing on'), // the no-cost question only
    );
    results.paired = await pairedSection(paired);
    console.log(
      `\ntools/call through McpDispatcher, each beside "package absent" at the same time on the other core, ${PAIR_ROUNDS} rounds; the ratio to absent, median (quartiles), and a 95% interval of the median:\n`,
    );
    console.log(
      '| telemetry | CPU x absent | its 95% interval | wall x absent | its 95% interval |',
    );
    console.log('|---|---:|---:|---:|---:|');
    const q = ([p25, p50, p75]) => `${x(p50)} (${x(p25)} to ${x(p75)})`;
    const ci = ([lo, hi]) => `${x(lo)} to ${x(hi)}`;
    for (const r of results.paired)
      console.log(
        `| ${r.mode} | ${q(r.cpuUs)} | ${ci(r.cpuUsMedianInterval)} | ${q(r.wallUs)} | ${ci(r.wallUsMedianInterval)} |`,
      );
  }
} finally {
  baseline?.remove();
}
const out = process.env.BENCH_OUT ?? join(BENCH, 'results');
mkdirSync(out, { recursive: true });
const file = join(
  out,
  `${new Date().toISOString().replace(/[:.]/g, '-')}-telemetry.json`,
);
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(`\nresults: ${relative(process.cwd(), file)}`);
