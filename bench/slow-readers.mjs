// Memory under clients that pipeline requests and never read the answers:
// 20 raw TCP connections each write 200 `tools/call orders_list` POSTs and
// never read (unpaginated, the list of 500 orders is ~113 kB; where the tool
// pages, BENCH_BATCH=5 sends 2025-03-26 batches of 5 pages to match). The
// app runs in this process; its resident set size is sampled for 10 s and
// the peak printed against the size before the flood. Run with `npm run build` once, then
// `node bench/slow-readers.mjs` (no npm needed).
import { Buffer } from 'node:buffer';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSample } from './sample-app.mjs';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BATCH = Number(process.env.BENCH_BATCH ?? 1);
const AUTHORIZATION = 'ApiKey dev-alice-key';

const { app, port } = await startSample();

const rpc = (id, name, args) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });

const call = async (text, headers = {}) => {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      authorization: AUTHORIZATION,
      'content-type': 'application/json',
      ...headers,
    },
    body: text,
  });
  const answer = await res.text();
  if (!res.ok || answer.includes('"isError":true')) throw new Error(answer);
  return answer;
};
for (let i = 0; i < ORDERS; i++)
  await call(rpc(i, 'orders_create', { name: `order ${i}`, amount: i + 1 }));

// The largest page the tool gives (a paginated `orders_list` takes a
// `limit`; one that lists everything refuses it), BATCH of them per POST.
const listArgs = await call(rpc(1, 'orders_list', { limit: 100 })).then(
  () => ({ limit: 100 }),
  () => ({}),
);
const body =
  BATCH > 1
    ? JSON.stringify(
        Array.from({ length: BATCH }, (_, i) =>
          JSON.parse(rpc(i, 'orders_list', listArgs)),
        ),
      )
    : rpc(1, 'orders_list', listArgs);
const version = BATCH > 1 ? { 'mcp-protocol-version': '2025-03-26' } : {};
const answerSize = Buffer.byteLength(await call(body, version));
const request =
  'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
  `Authorization: ${AUTHORIZATION}\r\nContent-Type: application/json\r\n` +
  Object.entries(version)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const flood = request.repeat(PIPELINED);

let answered = 0; // POSTs whose answer was computed (end() called)
app
  .getHttpServer()
  .on('request', (_req, res) => res.once('prefinish', () => answered++));
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
globalThis.gc?.();
const before = process.memoryUsage().rss;
const sockets = Array.from({ length: CLIENTS }, () => {
  const socket = connect(port, '127.0.0.1', () => socket.write(flood));
  socket.pause(); // never read
  socket.on('error', () => {});
  return socket;
});

let peak = before;
const started = Date.now();
while (Date.now() - started < SECONDS * 1000) {
  await sleep(100);
  peak = Math.max(peak, process.memoryUsage().rss);
}
for (const socket of sockets) socket.destroy();
await app.close();

console.log(
  `${CLIENTS} non-reading clients x ${PIPELINED} pipelined POSTs of ${BATCH} orders_list ` +
    `(${ORDERS} orders, ${(answerSize / 1024).toFixed(0)} kB an answer), ${SECONDS} s`,
);
console.log(
  `RSS before ${mb(before)}, peak ${mb(peak)}: ${(peak / before).toFixed(2)}x, +${mb(peak - before)}; ` +
    `${answered} of ${CLIENTS * PIPELINED} answers computed`,
);
