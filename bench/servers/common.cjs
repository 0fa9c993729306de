// What every benchmark server shares: the API key, the ten items served from
// memory, and the report to the harness once listening (over the IPC channel
// the harness opens). Plain CommonJS, no Nest: the bare servers use it too.
const { performance } = require('node:perf_hooks');

/** The only key the servers accept, as `Authorization: ApiKey <key>`. */
const AUTHORIZATION = 'ApiKey bench-key';

/** The ten items every server answers with, from memory. */
const ITEMS = Object.freeze(
  Array.from({ length: 10 }, (_, i) =>
    Object.freeze({
      id: i + 1,
      sku: `SKU-${String(i + 1).padStart(4, '0')}`,
      name: `Item ${i + 1}`,
      price: 100 + i * 25,
      tags: ['bench', i % 2 ? 'odd' : 'even'],
    }),
  ),
);

/** `{ items }`: the first `limit` items (10 at most). */
function listItems(limit) {
  return { items: ITEMS.slice(0, limit) };
}

/**
 * The memory figures the harness asks for (bytes): the resident set, V8's
 * heap (reserved, in use) and memory outside it, before and (when exposed)
 * after a full GC.
 */
function memory() {
  const before = process.memoryUsage();
  globalThis.gc?.();
  const after = process.memoryUsage();
  return {
    rss: before.rss,
    heapTotal: before.heapTotal,
    heapUsed: before.heapUsed,
    external: before.external,
    rssAfterGc: after.rss,
    heapTotalAfterGc: after.heapTotal,
    heapUsedAfterGc: after.heapUsed,
    gc: typeof globalThis.gc === 'function',
  };
}

let session;
/** Starts (`start`) or stops and writes to `path` (`stop`) a CPU profile. */
async function profile(message) {
  const { Session } = require('node:inspector');
  const { writeFileSync } = require('node:fs');
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  if (message.cmd === 'profile-start') {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
    return {};
  }
  const { profile: result } = await post('Profiler.stop');
  session.disconnect();
  writeFileSync(message.path, JSON.stringify(result));
  return { path: message.path };
}

/**
 * Tells the harness the server listens on `port`, with the time since the
 * process started and `extra` (e.g. the boot time), and from then on answers
 * its questions over IPC: `memory`, `cpu` (its `process.cpuUsage()`), `profile-start`, `profile-stop` (with a
 * `path`), and `exit` (a normal exit, so that `--cpu-prof` writes its file).
 */
function reportReady(port, extra = {}) {
  if (!process.send) {
    console.log(JSON.stringify({ ready: true, port, ...extra }));
    return;
  }
  process.on('message', (message) => {
    const cmd = message?.cmd;
    if (cmd === 'exit') process.exit(0);
    if (cmd === 'memory') process.send({ reply: cmd, memory: memory() });
    if (cmd === 'cpu') process.send({ reply: cmd, cpu: process.cpuUsage() });
    if (cmd === 'profile-start' || cmd === 'profile-stop')
      void profile(message).then(
        (result) => process.send({ reply: cmd, ...result }),
        (error) => process.send({ reply: cmd, error: String(error) }),
      );
  });
  const cpu = process.cpuUsage();
  process.send({
    ready: true,
    port,
    sinceProcessStartMs: performance.now(),
    // The process's CPU time from its start to listening (all threads).
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...extra,
  });
}

module.exports = { AUTHORIZATION, ITEMS, listItems, reportReady };
