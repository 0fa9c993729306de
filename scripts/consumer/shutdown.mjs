// The consumer test's graceful shutdown check: run by scripts/consumer-test.sh
// inside the throw-away app as `node shutdown.mjs <entry.js> <exit>`, where
// <entry.js> is the built scripts/consumer/shutdown-main.ts and <exit> what
// the process must end with (`0`, or `SIGTERM` on a Nest without
// `useProcessExit`). Starts it from / and, with a tool call under way, sends
// SIGTERM: the call is answered, the server takes no connection once the
// root module closes its resources, and the process ends
// within McpServerLifecycleModule's grace period (10 s) once Nest's last hook
// has run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';

const [entry, expectedExit] = process.argv.slice(2);
const GRACE_MS = 10_000;

const app = spawn(process.execPath, [resolve(entry)], {
  cwd: '/',
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
app.stdout.on('data', (chunk) => (output += chunk));
app.stderr.on('data', (chunk) => (output += chunk));
const exited = new Promise((done) =>
  app.once('exit', (code, signal) =>
    done({ code, signal, at: performance.now() }),
  ),
);

/** Resolves with the first match of `pattern` in the app's output. */
async function seen(pattern, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output);
    if (match) return match;
    if (app.exitCode !== null || app.signalCode !== null) {
      throw new Error(`The app ended before it printed ${pattern}.`);
    }
    if (performance.now() > deadline) {
      throw new Error(`The app did not print ${pattern} in ${timeoutMs} ms.`);
    }
    await sleep(20);
  }
}

function post(endpoint, message) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(message),
  });
}

try {
  const [, base] = await seen(/listening on (http:\/\/\S+)/);
  const endpoint = new URL('/mcp', base);
  const ready = await post(endpoint, { jsonrpc: '2.0', id: 0, method: 'ping' });
  assert.equal(ready.status, 200, await ready.text());

  const call = post(endpoint, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'slow_wait', arguments: {} },
  });
  await sleep(300);
  app.kill('SIGTERM');
  const signalledAt = performance.now();

  const answered = await call;
  const body = await answered.json();
  assert.equal(answered.status, 200, JSON.stringify(body));
  assert.notEqual(body.result?.isError, true, JSON.stringify(body));
  assert.deepEqual(body.result?.structuredContent, { waitedMs: 2000 });

  // McpServerLifecycleModule drains the server before any onModuleDestroy hook (the root
  // module's run first): once the root module closes its resources, the
  // server takes no connection.
  await seen(/root module: closing resources/);
  const late = await post(endpoint, { jsonrpc: '2.0', id: 3, method: 'ping' })
    .then((response) => response.status)
    .catch((error) => error.cause?.code ?? error.message);
  assert.equal(late, 'ECONNREFUSED');

  const exit = await Promise.race([
    exited,
    sleep(GRACE_MS + 1_000).then(() => 'still running'),
  ]);
  assert.notEqual(exit, 'still running', 'the app did not end in time');
  const tookMs = Math.round(exit.at - signalledAt);
  assert.deepEqual(
    expectedExit === 'SIGTERM'
      ? { signal: exit.signal }
      : { code: exit.code, signal: exit.signal },
    expectedExit === 'SIGTERM'
      ? { signal: 'SIGTERM' }
      : { code: Number(expectedExit), signal: null },
  );
  assert.match(output, /application shut down \(SIGTERM\)/);
  assert.doesNotMatch(output, /McpServerLifecycleModule cannot tell/);
  console.log(
    `graceful shutdown: the call under way answered, late request ${late} while the root module closed, ` +
      `ended (${exit.signal ?? `exit ${exit.code}`}) ${tookMs} ms after SIGTERM`,
  );
} catch (error) {
  console.error(`--- app output:\n${output}`);
  throw error;
} finally {
  if (app.exitCode === null && app.signalCode === null) app.kill('SIGKILL');
}
