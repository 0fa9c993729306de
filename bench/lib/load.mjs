// Load and latency: autocannon (in the harness's process, never in the
// server's) for throughput under concurrency, and a sequential keep-alive
// probe for sub-millisecond latency (autocannon's histogram keeps whole ms).
import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

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
 * Sends `count` requests one after another on one keep-alive connection and
 * resolves to `{ p50, p99, mean, bytes }` (ms, with fractions).
 */
export async function probeLatency(port, req, { count, check }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let bytes = 0;
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const answer = await new Promise((resolve, reject) => {
        const r = request(
          {
            host: '127.0.0.1',
            port,
            path: req.path,
            method: req.method ?? 'POST',
            headers: req.headers,
            agent,
          },
          (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode, body: Buffer.concat(chunks) }),
            );
          },
        );
        r.on('error', reject);
        r.end(req.body);
      });
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`status ${answer.status}`);
      if (i === 0) check?.(answer.body.toString('utf8'));
      bytes = answer.body.length;
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  const at = (q) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {
    p50: at(0.5),
    p99: at(0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    bytes,
  };
}
