// One stdio MCP server measured: spawned, initialised, then tools/call lines
// with a fixed number under way, its CPU time and peak RSS read from /proc
// (Linux). Shared by bench/run.mjs and bench/baseline.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { PROTOCOL_VERSION, TOOL_CALL, checkToolCall, rpc } from './servers.mjs';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far (user + system, all threads), in µs. */
export function processCpuUs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime 14 and stime 15 (1-based).
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
}

/** A process's peak resident set size so far (VmHWM), in bytes. */
export function peakRss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

export const INITIALIZE = rpc(0, 'initialize', {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'bench', version: '1.0.0' },
});
const INITIALIZED = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/initialized',
});

/**
 * One stdio server, spawned: initialised, one checked tools/call, then
 * `warmup` and `calls` tools/call lines with `inFlight` of them under way
 * (a new line written for every answer), the server's CPU time read from
 * /proc before and after the measured calls and its peak RSS at the end.
 */
export async function stdioRun(server, { calls, warmup, inFlight }) {
  const child = spawn(process.execPath, server.args, {
    env: { ...process.env, ...server.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let buffered = '';
  let answered = 0;
  let failed = 0;
  let last = '';
  let onAnswers = () => {};
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let count = 0;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      last = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (last.includes('"isError":true') || last.includes('"error":'))
        failed++;
      count++;
    }
    answered += count;
    if (count) onAnswers(count);
  });
  const failure = exited.then((code) => {
    throw new Error(`${server.id} exited with ${code}\n${stderr}`);
  });
  let nextId = 1;
  const line = () => TOOL_CALL.replace('"id":1', `"id":${nextId++}`);
  /** Resolves once `count` more calls are answered, `inFlight` at a time. */
  const pipeline = (count) =>
    Promise.race([
      failure,
      new Promise((resolve) => {
        const target = answered + count;
        let written = 0;
        const write = (n) => {
          const batch = [];
          while (batch.length < n && written < count) {
            batch.push(line());
            written++;
          }
          if (batch.length) child.stdin.write(batch.join('\n') + '\n');
        };
        onAnswers = (n) => {
          if (answered >= target) return resolve();
          write(n);
        };
        write(inFlight);
      }),
    ]);
  /** Resolves once `target` answers have come in all told. */
  const until = (target) =>
    Promise.race([
      failure,
      new Promise((resolve) => {
        onAnswers = () => answered >= target && resolve();
        onAnswers();
      }),
    ]);
  try {
    child.stdin.write(`${INITIALIZE}\n${INITIALIZED}\n`);
    await until(1); // the initialize answer, once the server is up
    await pipeline(1);
    checkToolCall({
      headers: { 'content-type': 'application/json' },
      body: last,
    });
    if (warmup) await pipeline(warmup);
    const cpuBefore = processCpuUs(child.pid);
    const started = performance.now();
    await pipeline(calls);
    const seconds = (performance.now() - started) / 1000;
    const cpuUs = (processCpuUs(child.pid) - cpuBefore) / calls;
    const rss = peakRss(child.pid);
    if (failed) throw new Error(`${server.id}: ${failed} answers with errors`);
    checkToolCall({
      headers: { 'content-type': 'application/json' },
      body: last,
    });
    return {
      calls,
      seconds,
      callsPerSecond: calls / seconds,
      cpuUs,
      peakRss: rss,
    };
  } finally {
    child.stdin.end();
    await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
