// Cost of the MCP carrier against the app's own REST route for the same
// operation. The scenarios run interleaved, round after round, in one process
// against one app, and are reported as ratios: absolute numbers on a shared
// machine mean little. Run with `npm run bench` (builds first).
import { performance } from 'node:perf_hooks';
import { runInterleaved } from './interleaved.mjs';
import { startSample } from './sample-app.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const CONCURRENCY = 8;

const { app, port } = await startSample();
const base = `http://127.0.0.1:${port}`;
const headers = {
  authorization: 'ApiKey dev-alice-key',
  'x-tenant-id': 'acme',
  'content-type': 'application/json',
};
const post = (path, body) =>
  fetch(base + path, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  }).then(async (res) => {
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
    return text;
  });
const rpc = (method, params) =>
  post('/mcp', { jsonrpc: '2.0', id: 1, method, params });

for (let i = 1; i <= 20; i++)
  await post('/orders', { name: `order ${i}`, amount: i });

const scenarios = {
  'REST GET /orders': () =>
    fetch(`${base}/orders`, { headers }).then((res) => res.text()),
  'MCP tools/call orders_list': () =>
    rpc('tools/call', { name: 'orders_list', arguments: {} }).then((text) => {
      if (text.includes('"isError":true')) throw new Error(text);
    }),
  'MCP tools/list': () => rpc('tools/list'),
};

async function measure(run) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await run();
    }),
  );
  return (CALLS / (performance.now() - start)) * 1000;
}

await runInterleaved({
  scenarios,
  measure,
  rounds: ROUNDS,
  heading: `${ROUNDS} rounds x ${CALLS} calls, ${CONCURRENCY} in flight; median per scenario`,
  baseline: 'REST GET /orders',
  label: 'REST',
});
await app.close();
