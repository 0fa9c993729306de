// This library against an earlier build of itself, in one run:
//
//   npm run bench:baseline -- <git revision>    (default: HEAD~1)
//
// Checks the revision out in a temporary worktree, builds its libraries there
// (its node_modules links this checkout's packages, but @nestops/* to its own
// libs/, as npm's workspaces link them), then serves the same two loads from
// this checkout's build and the revision's, fresh processes in rotated order
// over the rounds: `tools/call` on the one-operation app, and `tools/list`
// (en-US) on the app with 1,000 operations. Prints, per load, each build's
// median requests/s and server CPU time per request, and the ratio of this
// build to the revision's (median of the rounds, with their range); writes
// bench/results/<date>-baseline.json. Then the stdio host of each build
// (bench/servers/nestops-stdio.cjs, 20,000 tools/call lines, 64 under way):
// its server CPU per call and its peak RSS, side by side in the same rounds.
// About 3 minutes (BENCH_ROUNDS, default 5).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, loadBytes } from './lib/load.mjs';
import { machineInfo, machineLine } from './lib/machine.mjs';
import { checkOutRevision, git, median } from './lib/revision.mjs';
import {
  AUTHORIZATION,
  NESTOPS_HTTP,
  rpc,
  startServer,
  verify,
} from './lib/servers.mjs';
import { stdioRun } from './lib/stdio-run.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH);
const { writeCatalogue } = createRequire(import.meta.url)(
  './servers/many-operations.cjs',
);
const log = (...args) => console.error(...args);

const revision = process.argv[2] ?? 'HEAD~1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPERATIONS = 1000;
const WARMUP = { duration: 2 };
const MEASURED = { duration: 5 };
const CONNECTIONS = 50;
const STDIO = { calls: 20_000, warmup: 2_000, inFlight: 64 };

const LIST = {
  path: '/mcp',
  headers: { ...NESTOPS_HTTP.request.headers, 'accept-language': 'en-US' },
  body: rpc(2, 'tools/list'),
};
const listCheck = (answer) => {
  const tools = JSON.parse(answer.body).result?.tools;
  if (tools?.length !== OPERATIONS)
    throw new Error(`tools/list: ${tools?.length} tools, not ${OPERATIONS}`);
};

async function measure(script, { env, request, check, bytes }) {
  const running = await startServer(script, { env });
  try {
    await verify(NESTOPS_HTTP, running.port, request, check);
    const run = bytes ? loadBytes : load;
    await run(running.port, request, { connections: CONNECTIONS, ...WARMUP });
    const before = await running.cpu();
    const result = await run(running.port, request, {
      connections: CONNECTIONS,
      ...MEASURED,
    });
    if (result.errors || result.non2xx || result.timeouts)
      throw new Error(`${script}: errors under load`);
    const cpuUs = ((await running.cpu()) - before) / result.requests;
    await verify(NESTOPS_HTTP, running.port, request, check);
    return { rps: result.rps, cpuUs };
  } finally {
    await running.stop();
  }
}

const checkout = checkOutRevision(revision, log);
const { commit, dir } = checkout;
try {
  const catalogue = mkdtempSync(join(tmpdir(), 'bench-i18n-'));
  writeCatalogue(catalogue, OPERATIONS);
  const script = (root) => join(root, 'bench', 'servers', 'nestops-http.cjs');
  const builds = [
    { id: 'current', script: script(ROOT) },
    { id: 'baseline', script: script(dir) },
  ];
  const loads = [
    {
      id: 'tools/call',
      env: { BENCH_OPS: '1', BENCH_I18N: catalogue },
      request: NESTOPS_HTTP.request,
      check: NESTOPS_HTTP.check,
    },
    {
      id: `tools/list (${OPERATIONS} operations, en-US)`,
      env: { BENCH_OPS: String(OPERATIONS), BENCH_I18N: catalogue },
      request: LIST,
      check: listCheck,
      bytes: true,
    },
  ];
  log(`bench baseline: ${machineLine(machineInfo())}`);
  const samples = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const each of loads) {
      const order = round % 2 ? [...builds].reverse() : builds;
      for (const build of order) {
        const sample = await measure(build.script, each);
        (samples[`${each.id}|${build.id}`] ??= []).push(sample);
        log(
          `round ${round + 1}/${ROUNDS} ${each.id} ${build.id.padEnd(8)} ${sample.rps.toFixed(0)} req/s, server CPU ${sample.cpuUs.toFixed(0)} µs/request`,
        );
      }
    }
  }
  const stdioSamples = { current: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...builds].reverse() : builds;
    for (const build of order) {
      const root = build.id === 'current' ? ROOT : dir;
      const sample = await stdioRun(
        {
          id: `stdio ${build.id}`,
          args: [
            join(root, 'bench', 'servers', 'nestops-stdio.cjs'),
            'mcp',
            '--authorization',
            AUTHORIZATION,
          ],
          env: { BENCH_OPS: '1' },
        },
        STDIO,
      );
      stdioSamples[build.id].push(sample);
      log(
        `round ${round + 1}/${ROUNDS} stdio ${build.id.padEnd(8)} ${sample.callsPerSecond.toFixed(0)} calls/s, server CPU ${sample.cpuUs.toFixed(1)} µs/call, peak RSS ${(sample.peakRss / 2 ** 20).toFixed(1)} MiB`,
      );
    }
  }
  const stdio = {
    ...STDIO,
    current: {
      cpuUs: median(stdioSamples.current.map((s) => s.cpuUs)),
      peakRss: median(stdioSamples.current.map((s) => s.peakRss)),
    },
    baseline: {
      cpuUs: median(stdioSamples.baseline.map((s) => s.cpuUs)),
      peakRss: median(stdioSamples.baseline.map((s) => s.peakRss)),
    },
    cpuRatio: median(
      stdioSamples.current.map(
        (s, i) => s.cpuUs / stdioSamples.baseline[i].cpuUs,
      ),
    ),
    peakRssRatio: median(
      stdioSamples.current.map(
        (s, i) => s.peakRss / stdioSamples.baseline[i].peakRss,
      ),
    ),
    rounds: stdioSamples,
  };
  const rows = loads.map((each) => {
    const [now, then] = builds.map((b) => samples[`${each.id}|${b.id}`]);
    const ratios = now.map((s, i) => s.rps / then[i].rps);
    const cpuRatios = now.map((s, i) => s.cpuUs / then[i].cpuUs);
    return {
      load: each.id,
      current: {
        rps: median(now.map((s) => s.rps)),
        cpuUs: median(now.map((s) => s.cpuUs)),
      },
      baseline: {
        rps: median(then.map((s) => s.rps)),
        cpuUs: median(then.map((s) => s.cpuUs)),
      },
      rpsRatio: median(ratios),
      rpsRatioRange: [Math.min(...ratios), Math.max(...ratios)],
      cpuRatio: median(cpuRatios),
      cpuRatioRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
      rounds: { current: now, baseline: then },
    };
  });
  const head = git('rev-parse', '--short', 'HEAD');
  console.log(
    `\nthis checkout (${head}${git('status', '--porcelain') ? ', with changes' : ''}) against ${commit.slice(0, 7)}, ${ROUNDS} rounds:\n`,
  );
  console.log(
    '| load | current req/s | baseline req/s | ratio (range) | current CPU µs/req | baseline CPU µs/req | CPU ratio (range) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  const x = (n) => `${n.toFixed(3)}x`;
  for (const r of rows)
    console.log(
      `| ${r.load} | ${r.current.rps.toFixed(0)} | ${r.baseline.rps.toFixed(0)} | ${x(r.rpsRatio)} (${x(r.rpsRatioRange[0])} to ${x(r.rpsRatioRange[1])}) | ${r.current.cpuUs.toFixed(0)} | ${r.baseline.cpuUs.toFixed(0)} | ${x(r.cpuRatio)} (${x(r.cpuRatioRange[0])} to ${x(r.cpuRatioRange[1])}) |`,
    );
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `\nstdio host (${STDIO.calls} tools/call lines, ${STDIO.inFlight} under way): server CPU ${stdio.current.cpuUs.toFixed(1)} against ${stdio.baseline.cpuUs.toFixed(1)} µs/call (${x(stdio.cpuRatio)}), peak RSS ${mib(stdio.current.peakRss)} against ${mib(stdio.baseline.peakRss)} (${x(stdio.peakRssRatio)})`,
  );
  const out = process.env.BENCH_OUT ?? join(BENCH, 'results');
  mkdirSync(out, { recursive: true });
  const file = join(
    out,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-baseline.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        machine: machineInfo(),
        head,
        baseline: commit,
        rounds: ROUNDS,
        rows,
        stdio,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nresults: ${relative(process.cwd(), file)}`);
} finally {
  checkout.remove();
}
