// Sums a V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` or the
// inspector's Profiler write it) by self time: per function and per area
// (this repository's libraries, each npm package, Node's internals, GC).
import { readFileSync } from 'node:fs';

/** The area a script URL belongs to. */
export function areaOf(url) {
  if (!url) return '(native / V8)';
  const lib = /\/libs\/([^/]+)\//.exec(url);
  if (lib && !url.includes('node_modules')) return `@nestops/${lib[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
    url.slice(url.lastIndexOf('node_modules/')),
  );
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node (internals)';
  if (url.includes('/bench/')) return 'bench app';
  return url;
}

/**
 * `{ totalMs, areas: [{ area, pct }], functions: [{ name, where, pct }] }`:
 * the `top` largest of each by self time, in % of the samples that were not
 * idle.
 */
export function summarizeProfile(path, top = 12) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const functions = new Map();
  const areas = new Map();
  let busy = 0;
  for (const [id, count] of hits) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    if (name === '(idle)') continue;
    busy += count;
    const short = callFrame.url.replace(/^.*\/(node_modules|libs)\//, '$1/');
    const where = callFrame.url
      ? `${short.replace(/^file:\/\//, '')}:${callFrame.lineNumber + 1}`
      : '';
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, count: 0 };
    entry.count += count;
    functions.set(key, entry);
    const area = ['(garbage collector)', '(program)', '(root)'].includes(name)
      ? name
      : areaOf(callFrame.url);
    areas.set(area, (areas.get(area) ?? 0) + count);
  }
  const pct = (count) => Math.round((count / busy) * 1000) / 10;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  return {
    totalMs: Math.round(totalMs),
    areas: [...areas]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, count]) => ({ area, pct: pct(count) })),
    functions: [...functions.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, top)
      .map(({ name, where, count }) => ({ name, where, pct: pct(count) })),
  };
}
