// What telemetry costs a `tools/call` (issue 25), in one run:
//
//   npm run bench:telemetry        (node bench/telemetry.mjs after build:libs)
//
// The one-operation app of nestops-http.cjs served four ways, each a fresh
// process, in rotated order over the rounds (BENCH_ROUNDS, default 5):
// `@opentelemetry/api` absent (unresolvable, as where it is not installed:
// the baseline), installed with no SDK registered (tracing off), the SDK
// registered with exporters that drop everything (on), and on with an
// audit sink that drops every event (bench/servers/otel-mode.cjs sets each
// up). Each: 2 s of warm-up, 5 s at 50 connections (autocannon). Prints
// the median requests/s and server CPU time per request of each, and the
// median of the rounds' ratios to the baseline with their range; writes
// bench/results/<date>-telemetry.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from './lib/load.mjs';
import { machineInfo, machineLine } from './lib/machine.mjs';
import { NESTOPS_HTTP, startServer, verify } from './lib/servers.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(BENCH, 'servers', 'nestops-http.cjs');
const PRELOAD = join(BENCH, 'servers', 'otel-mode.cjs');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function measure(mode) {
  const running = await startServer(SCRIPT, {
    env: { BENCH_OPS: '1', ...mode.env },
    flags: ['-r', PRELOAD],
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
      throw new Error(`${mode.id}: errors under load`);
    const cpuUs = ((await running.cpu()) - before) / result.requests;
    await verify(NESTOPS_HTTP, running.port, request, check);
    return { rps: result.rps, cpuUs };
  } finally {
    await running.stop();
  }
}

log(`bench telemetry: ${machineLine(machineInfo())}`);
const samples = MODES.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < MODES.length; k++) {
    const index = (k + round) % MODES.length;
    const sample = await measure(MODES[index]);
    samples[index][round] = sample;
    log(
      `round ${round + 1}/${ROUNDS} ${MODES[index].id.padEnd(34)} ${sample.rps.toFixed(0)} req/s, server CPU ${sample.cpuUs.toFixed(0)} µs/request`,
    );
  }
}
const [base] = samples;
const rows = MODES.map((mode, index) => {
  const own = samples[index];
  const ratios = own.map((s, i) => s.rps / base[i].rps);
  const cpuRatios = own.map((s, i) => s.cpuUs / base[i].cpuUs);
  return {
    mode: mode.id,
    rps: median(own.map((s) => s.rps)),
    cpuUs: median(own.map((s) => s.cpuUs)),
    rpsRatio: median(ratios),
    rpsRatioRange: [Math.min(...ratios), Math.max(...ratios)],
    cpuRatio: median(cpuRatios),
    cpuRatioRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
    rounds: own,
  };
});
const x = (n) => `${n.toFixed(3)}x`;
console.log(
  `\ntools/call (one operation), ${ROUNDS} rounds; ratios to "package absent", median of the rounds (range):\n`,
);
console.log(
  '| telemetry | req/s | x absent (req/s) | server CPU µs/request | x absent (CPU) |',
);
console.log('|---|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.mode} | ${r.rps.toFixed(0)} | ${x(r.rpsRatio)} (${x(r.rpsRatioRange[0])} to ${x(r.rpsRatioRange[1])}) | ${r.cpuUs.toFixed(0)} | ${x(r.cpuRatio)} (${x(r.cpuRatioRange[0])} to ${x(r.cpuRatioRange[1])}) |`,
  );
const out = process.env.BENCH_OUT ?? join(BENCH, 'results');
mkdirSync(out, { recursive: true });
const file = join(
  out,
  `${new Date().toISOString().replace(/[:.]/g, '-')}-telemetry.json`,
);
writeFileSync(
  file,
  JSON.stringify({ machine: machineInfo(), rounds: ROUNDS, rows }, null, 2) +
    '\n',
);
console.log(`\nresults: ${relative(process.cwd(), file)}`);
