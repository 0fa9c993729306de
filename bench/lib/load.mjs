// Load and latency, always from the harness's process, never the server's:
// autocannon for throughput under concurrency; for large answers (a tool
// list of hundreds of kB) a load of undici requests whose bodies are counted
// as bytes, because autocannon appends every body to a JavaScript string
// and so, at 450 kB an answer, measures its own decoding more than the
// server; and a sequential keep-alive probe for sub-millisecond latency
// (autocannon's histogram keeps whole ms).
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import autocannon from 'autocannon';
import { Client, Pool } from 'undici';

/**
 * Runs autocannon against `port` with `request` ({ path, headers, body }) for
 * `duration` s (or `amount` requests) over `connections`; resolves to
 * `{ rps, p50, p99, requests, errors, non2xx, timeouts, seconds }`
 * (latency in ms, whole ms).
 */
export async function load(port, req, { connections = 50, duration, amount }) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${req.path}`,
    method: req.method ?? 'POST',
    headers: req.headers,
    body: req.body,
    connections,
    // By count, stop at once (autocannon stops on its next sample tick).
    ...(amount ? { amount, sampleInt: 50 } : { duration }),
  });
  const seconds = result.duration;
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
    seconds,
  };
}

/**
 * The same measure as `load()` with undici: `connections` keep-alive
 * connections, one request in flight on each, every answer's body read as
 * bytes and never decoded. Latencies keep their fractions of a millisecond.
 * A status other than 2xx counts in `non2xx`, a failed request in `errors`.
 */
export async function loadBytes(
  port,
  req,
  { connections = 50, duration, amount },
) {
  const pool = new Pool(`http://127.0.0.1:${port}`, {
    connections,
    pipelining: 1,
  });
  const times = [];
  let errors = 0;
  let non2xx = 0;
  let bytes = 0;
  let issued = 0;
  let stopped = false;
  const timer = duration
    ? setTimeout(() => (stopped = true), duration * 1000)
    : undefined;
  const more = () => !stopped && (!amount || issued < amount);
  const started = performance.now();
  const worker = async () => {
    while (more()) {
      issued++;
      const sent = performance.now();
      try {
        const answer = await pool.request({
          path: req.path,
          method: req.method ?? 'POST',
          headers: req.headers,
          body: req.body,
        });
        for await (const chunk of answer.body) bytes += chunk.length;
        if (answer.statusCode < 200 || answer.statusCode > 299) non2xx++;
        times.push(performance.now() - sent);
      } catch {
        errors++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    clearTimeout(timer);
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    rps: times.length / seconds,
    ...quantiles(times),
    requests: times.length,
    bytesPerAnswer: times.length ? bytes / times.length : 0,
    errors,
    non2xx,
    timeouts: 0,
    seconds,
  };
}

/**
 * Sends `count` requests one after another on one keep-alive connection
 * (undici, bodies read as bytes) and resolves to `{ p50, p99, mean, bytes }`
 * (ms, with fractions). `check` gets the first answer's text.
 */
export async function probeLatency(port, req, { count, check }) {
  const client = new Client(`http://127.0.0.1:${port}`);
  const times = [];
  let bytes = 0;
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const answer = await client.request({
        path: req.path,
        method: req.method ?? 'POST',
        headers: req.headers,
        body: req.body,
      });
      const chunks = [];
      for await (const chunk of answer.body) chunks.push(chunk);
      times.push(performance.now() - started);
      const body = Buffer.concat(chunks);
      if (answer.statusCode !== 200)
        throw new Error(`status ${answer.statusCode}`);
      if (i === 0) check?.(body.toString('utf8'));
      bytes = body.length;
    }
  } finally {
    await client.close();
  }
  const { p50, p99 } = quantiles(times);
  return {
    p50,
    p99,
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    bytes,
  };
}

/** `{ p50, p99 }` of `times` (ms). */
function quantiles(times) {
  if (times.length === 0) return { p50: NaN, p99: NaN };
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99) };
}
