// npm run test:conformance: the official MCP conformance suite
// (@modelcontextprotocol/conformance) against the fixture app of
// test/conformance/app, as the SDKs run it: the app on a free port of
// 127.0.0.1, then each suite's `server` command against its endpoint. Two
// suites, each a pinned devDependency under an alias: the 2025 release
// (0.1.16, `--suite all`: the 2025-06-18 and 2025-11-25 scenarios, run at
// the 2025-11-25 wire) and the 2026-07-28 pre-release (0.2.0-alpha.12,
// `--requirements 2026-07-28`: what that revision requires, at its
// stateless wire, and the scenarios it runs unscored).
//
// Every check of every scenario is compared with
// test/conformance/expected-results.json, which says which pass and why the
// others do not. The run fails when a check does worse than listed (a pass
// that fails or warns, a warning that fails, a check gone) or when a check
// that does not pass is not listed; a check that does better is reported
// (update the list). Prints one line per suite:
//   conformance <suite>: <passed>/<total> checks passed
// counted as the suite counts them (passed: SUCCESS; total: SUCCESS and
// FAILURE; warnings apart).
//
//   npm run test:conformance                builds the libraries and the fixture, then this
//   node scripts/conformance.mjs            the same without building
//   node scripts/conformance.mjs --update   rewrites the expected results from this run,
//                                           keeping each scenario's reason
//
// Needs Node 22 or newer: the suite calls fs.globSync.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { compare, updated } from './conformance-results.mjs';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const FIXTURE = join(ROOT, 'dist/conformance/main.js');
const EXPECTED = join(ROOT, 'test/conformance/expected-results.json');
const require = createRequire(import.meta.url);

const SUITES = [
  {
    name: '2025-11-25',
    package: 'conformance-2025-11-25',
    args: ['--suite', 'all'],
  },
  {
    name: '2026-07-28',
    package: 'conformance-2026-07-28',
    args: ['--requirements', '2026-07-28'],
  },
];
const STARTUP_MS = 60_000;
const SUITE_MS = 600_000;

const update = process.argv.includes('--update');

if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    `conformance: the suite needs Node 22 or newer (it calls fs.globSync); this is Node ${process.versions.node}.`,
  );
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'nestops-conformance-'));
const fixture = await startFixture(join(work, 'fixture.log'));
let failed = false;
const results = {};
try {
  for (const suite of SUITES) {
    results[suite.name] = await runSuite(suite, fixture.url);
  }
} finally {
  fixture.child.kill('SIGTERM');
}

let expected = JSON.parse(readFileSync(EXPECTED, 'utf8'));
if (update) {
  expected = updated(
    expected,
    results,
    SUITES.map((suite) => suite.name),
  );
  writeFileSync(EXPECTED, `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`conformance: wrote ${relative(ROOT, EXPECTED)}`);
}
for (const suite of SUITES) {
  const scenarios = results[suite.name];
  const checks = Object.values(scenarios).flat();
  const passed = checks.filter((c) => c.status === 'SUCCESS').length;
  const total = passed + checks.filter((c) => c.status === 'FAILURE').length;
  console.log(`conformance ${suite.name}: ${passed}/${total} checks passed`);
  const full = Object.values(scenarios).filter((checks) =>
    checks.every((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'),
  ).length;
  console.log(
    `  ${full} of ${Object.keys(scenarios).length} scenarios pass every check; ${relative(ROOT, EXPECTED)} says why the others do not`,
  );
  const problems = compare(
    expected.suites?.[suite.name]?.scenarios ?? {},
    scenarios,
  );
  const report = [
    ...problems.worse.map((line) => `  REGRESSION ${line}`),
    ...problems.unlisted.map((line) => `  UNLISTED ${line}`),
    ...problems.better.map((line) => `  better than listed: ${line}`),
  ];
  report.forEach((line) => console.log(line));
  if (problems.better.length > 0) {
    console.log(
      `  (update ${relative(ROOT, EXPECTED)}: node scripts/conformance.mjs --update)`,
    );
  }
  failed ||= problems.worse.length > 0 || problems.unlisted.length > 0;
}
if (failed) {
  console.log(
    `conformance: failed; the suites' output and the fixture's log are in ${work}`,
  );
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });

/** Starts the fixture on a free port and waits for the URL it prints. */
async function startFixture(logFile) {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [FIXTURE], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      log.write(chunk);
      output += chunk.toString('utf8');
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(
        output,
      );
      if (found) resolve(found[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the fixture exited (${code}):\n${output}`)),
    );
    void delay(STARTUP_MS, undefined, { ref: false }).then(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `the fixture did not listen within ${STARTUP_MS} ms:\n${output}`,
        ),
      );
    });
  });
  return { child, url };
}

/**
 * Runs one suite's `server` command against the fixture and reads the
 * checks it wrote: `{ scenario: [check] }`, in the order they ran.
 */
async function runSuite(suite, url) {
  const manifest = require(`${suite.package}/package.json`);
  const bin = join(
    dirname(require.resolve(`${suite.package}/package.json`)),
    manifest.bin.conformance,
  );
  const out = join(work, suite.name);
  mkdirSync(out);
  console.log(
    `== conformance ${suite.name}: ${manifest.name}@${manifest.version} server ${suite.args.join(' ')}`,
  );
  const log = createWriteStream(join(work, `${suite.name}.log`));
  const child = spawn(
    process.execPath,
    [bin, 'server', '--url', url, ...suite.args, '--output-dir', out],
    { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_MS);
  // Its exit code counts every failure, expected or not: the comparison decides.
  await new Promise((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const scenarios = {};
  for (const dir of readdirSync(out).sort(byTimestamp)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir)?.[1];
    if (scenario) {
      scenarios[scenario] = JSON.parse(
        readFileSync(join(out, dir, 'checks.json'), 'utf8'),
      );
    }
  }
  return scenarios;
}

function byTimestamp(a, b) {
  const at = (dir) => /\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir)?.[0] ?? '';
  return at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0;
}
