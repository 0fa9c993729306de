// The servers under test, each started in its own process (one at a time),
// and the request each is measured with, with the check of its answer.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { fileURLToPath, URL } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';

const dir = (name) =>
  fileURLToPath(new URL(`../servers/${name}`, import.meta.url));

export const AUTHORIZATION = 'ApiKey bench-key';
export const PROTOCOL_VERSION = '2025-11-25';
export const ARGUMENTS = { category: 'tools', limit: 10 };

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL_VERSION,
  authorization: AUTHORIZATION,
};

/** A JSON-RPC request line/body. */
export const rpc = (id, method, params) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

export const TOOL_CALL = rpc(1, 'tools/call', {
  name: 'items_list',
  arguments: ARGUMENTS,
});

/** The MCP `tools/call` measured on every MCP server. */
const mcpCall = { path: '/mcp', headers: MCP_HEADERS, body: TOOL_CALL };

/** The servers of the comparison table, baseline first. */
export const SERVERS = [
  {
    id: 'nest-route',
    label: 'plain Nest route (POST /items)',
    script: dir('nest-route.cjs'),
    request: {
      path: '/items',
      headers: {
        'content-type': 'application/json',
        authorization: AUTHORIZATION,
      },
      body: JSON.stringify(ARGUMENTS),
    },
    check: (answer) => checkItems(JSON.parse(answer.body), 'body'),
  },
  {
    id: 'nestops',
    label: '@nestops/mcp tools/call',
    script: dir('nestops-http.cjs'),
    request: mcpCall,
    check: checkToolCall,
  },
  {
    id: 'rekog',
    label: '@rekog/mcp-nest tools/call',
    script: dir('rekog-mcp-nest.cjs'),
    request: mcpCall,
    check: checkToolCall,
  },
  {
    id: 'sdk',
    label: 'SDK McpServer tools/call',
    script: dir('sdk-mcp-server.mjs'),
    request: mcpCall,
    check: checkToolCall,
  },
  {
    id: 'bare',
    label: 'bare node:http JSON-RPC',
    script: dir('bare-http.cjs'),
    request: mcpCall,
    check: checkToolCall,
  },
];

export const NESTOPS_HTTP = SERVERS[1];
export const NESTOPS_STDIO = dir('nestops-stdio.cjs');
/** The SDK's stdio servers, the peers of the stdio host. */
export const STDIO_SCRIPTS = {
  sdkV1: dir('sdk-v1-stdio.mjs'),
  sdkV2: dir('sdk-v2-stdio.mjs'),
};

/** Throws unless `value.items` is the ten items (`where` names it). */
export function checkItems(value, where) {
  const items = value?.items;
  if (!Array.isArray(items) || items.length !== 10)
    throw new Error(
      `${where}: expected 10 items, got ${JSON.stringify(value)?.slice(0, 300)}`,
    );
  if (items[0].sku !== 'SKU-0001' || items[9].sku !== 'SKU-0010')
    throw new Error(
      `${where}: unexpected items ${JSON.stringify(items).slice(0, 300)}`,
    );
}

/** Throws unless a JSON `tools/call` answer (status 200) carries the ten items. */
export function checkToolCall(answer) {
  if (!/^application\/json/.test(answer.headers['content-type'] ?? ''))
    throw new Error(
      `answered ${answer.headers['content-type']}, not plain JSON`,
    );
  const message = JSON.parse(answer.body);
  const result = message.result;
  if (!result || result.isError)
    throw new Error(`tools/call failed: ${answer.body.slice(0, 300)}`);
  checkItems(JSON.parse(result.content[0].text), 'content[0].text');
  if (result.structuredContent)
    checkItems(result.structuredContent, 'structuredContent');
}

/** Sends one request to `port`; resolves to `{ status, headers, body }`. */
export function send(port, { path, headers, body, method = 'POST' }) {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends the server's request and checks the answer; throws when wrong. */
export async function verify(
  server,
  port,
  request = server.request,
  check = server.check,
) {
  const answer = await send(port, request);
  if (answer.status !== 200)
    throw new Error(
      `${server.id}: status ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  check(answer);
  return answer;
}

/**
 * Starts `script` with node (`flags` before it, `env` added) and resolves,
 * once it reports it listens, to `{ port, ready, wallMs, memory(), stop() }`:
 * `ready` is what it reported, `wallMs` the time from spawn to that report.
 */
export async function startServer(
  script,
  { env = {}, flags = [], timeoutMs = 60_000 } = {},
) {
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`${script} did not start in ${timeoutMs} ms\n${stderr}`),
        ),
      timeoutMs,
    );
    child.on('message', (message) => {
      if (message?.ready) {
        clearTimeout(timer);
        resolve(message);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}\n${stderr}`));
    });
  });
  const wallMs = performance.now() - started;
  return {
    port: ready.port,
    ready,
    wallMs,
    /** Sends `{ cmd, ...args }` over IPC; resolves to the server's reply. */
    ask(cmd, args = {}) {
      const reply = new Promise((resolve, reject) =>
        child.on('message', function onMessage(message) {
          if (message?.reply !== cmd) return;
          child.off('message', onMessage);
          if (message.error) reject(new Error(message.error));
          else resolve(message);
        }),
      );
      child.send({ cmd, ...args });
      return reply;
    },
    /** The server's CPU time so far, user + system (µs). */
    async cpu() {
      const { cpu } = await this.ask('cpu');
      return cpu.user + cpu.system;
    },
    /** `{ rss, heapUsed, rssAfterGc, heapUsedAfterGc, gc }` (bytes). */
    async memory() {
      return (await this.ask('memory')).memory;
    },
    /** Asks for a normal exit, then kills after 5 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ cmd: 'exit' });
      const done = await Promise.race([exited.then(() => true), sleep(5000)]);
      if (done !== true) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
