#!/usr/bin/env node
// Checks every peer dependency (optional or not) of libs/*/package.json
// against the newest release on the npm registry: the peer range must
// accept it, unless scripts/peer-ranges.json gives the reason it does not.
// An exception that no longer applies (the range accepts the newest
// release, or its `cappedBy` package now accepts it) fails too, so the
// table stays true. Prints one line per peer; exits 1 on any failure.
//
// Usage: node scripts/peer-ranges.mjs
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);
const { exceptions } = JSON.parse(
  readFileSync(join(import.meta.dirname, 'peer-ranges.json'), 'utf8'),
);

const libs = readdirSync(join(ROOT, 'libs')).map((dir) =>
  JSON.parse(readFileSync(join(ROOT, 'libs', dir, 'package.json'), 'utf8')),
);
const own = new Set(libs.map((lib) => lib.name));

/** `npm view <spec> <field> --json`, parsed; fails clearly offline. */
async function view(spec, field) {
  try {
    const { stdout } = await run(
      'npm',
      ['view', spec, field, '--json', '--fetch-retries=1'],
      { timeout: 60_000 },
    );
    return JSON.parse(stdout);
  } catch (error) {
    const said = `${error.stderr ?? ''}${error.message}`;
    const offline =
      /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network|timed out|SIGTERM/i;
    const why = offline.test(said)
      ? 'the npm registry is unreachable'
      : 'npm view failed';
    console.error(`peer-ranges: FAILED: ${why} (npm view ${spec} ${field}):`);
    console.error(said.trim().split('\n').slice(0, 6).join('\n'));
    process.exit(1);
  }
}

const newest = new Map();
/** The newest release (dist-tags.latest) of a package, asked once. */
const latest = (name) => {
  if (!newest.has(name)) newest.set(name, view(name, 'dist-tags.latest'));
  return newest.get(name);
};

let failed = 0;
const lines = libs.flatMap((lib) =>
  Object.entries(lib.peerDependencies ?? {}).map(async ([peer, range]) => {
    const optional = lib.peerDependenciesMeta?.[peer]?.optional === true;
    const head = `${lib.name} ${optional ? 'optional ' : ''}peer ${peer}@"${range}"`;
    if (own.has(peer)) {
      return `${head}: this repository's package, not checked`;
    }
    const version = await latest(peer);
    const accepted = semver.satisfies(version, range);
    const exception = exceptions.find(
      (e) => e.package === lib.name && e.peer === peer,
    );
    if (!exception) {
      if (accepted) return `${head}: accepts ${peer}@${version} (latest), OK`;
      failed++;
      return `${head}: FAILED: excludes ${peer}@${version} (latest); widen it, or give the reason in scripts/peer-ranges.json`;
    }
    const stale = await staleness(exception, version, accepted);
    if (stale) {
      failed++;
      return `${head}: FAILED: the exception in scripts/peer-ranges.json is stale: ${stale}`;
    }
    return `${head}: excludes ${peer}@${version} (latest), excused: ${exception.reason}`;
  }),
);

/** Why an exception no longer holds, or undefined where it does. */
async function staleness(exception, version, accepted) {
  if (accepted) return `the range accepts ${version} now`;
  if (!semver.satisfies(version, exception.excluded)) {
    return `it covers ${exception.excluded}, the latest is ${version}`;
  }
  // Stale once none of the packages that cap it excludes the newest release.
  const cappers = [exception.cappedBy ?? []].flat();
  const accepting = [];
  for (const name of cappers) {
    const capper = await latest(name);
    const range = (await view(`${name}@${capper}`, 'peerDependencies'))?.[
      exception.peer
    ];
    if (!range || semver.satisfies(version, range)) {
      accepting.push(`${name}@${capper} (${range ?? 'no range'})`);
    }
  }
  if (cappers.length > 0 && accepting.length === cappers.length) {
    return `${accepting.join(' and ')} accept ${exception.peer}@${version}`;
  }
  return undefined;
}

for (const line of await Promise.all(lines)) {
  console.log(`peer-ranges: ${line}`);
}
if (failed > 0) {
  console.error(`peer-ranges: FAILED: ${failed} peer range(s) to fix`);
  process.exit(1);
}
