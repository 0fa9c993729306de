import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: plain JavaScript, no declarations
import { checkToolCall, SERVERS } from '../../bench/lib/servers.mjs';

/**
 * The benchmark harness (`npm run bench`, bench/run.mjs) in its tiny
 * configuration (`BENCH_SMOKE=1`): every server starts in its own process and
 * answers its checked request right, and the table has a row per server. No
 * timing is asserted: the numbers of a smoke run mean nothing.
 */

const ROOT = join(__dirname, '../..');

interface Row {
  id: string;
  label: string;
  checked: boolean;
  cpuUs: number;
  rounds: { requests: number; errors: number; non2xx: number }[];
}

interface ListFigures {
  bytes: number;
  rps: number;
  cpuUs: number;
}

interface ScaleFigures {
  bootMs: number;
  startCpuMs: number;
  list: Record<string, ListFigures>;
}

interface Results {
  mode: string;
  machine: { cpu: string; cores: number; node: string; date: string };
  compare: { rows: Row[] };
  scale: {
    operations: number;
    one: ScaleFigures;
    many: ScaleFigures;
    shared: ScaleFigures;
  };
  stdio: {
    calls: number;
    rows: { id: string; label: string; cpuUs: number; peakRssMax: number }[];
    firstAnswer: {
      rows: { id: string; ms: number; cpuMs: number }[];
      breakdown: Record<string, number>;
    };
  };
  memory: {
    calls: number[];
    servers: Record<string, { after: { calls: number; rss: number }[] }>;
  };
  targets: { target: string; measured: string; met: boolean }[];
}

function runSmoke(): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
}> {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  const child = spawn(process.execPath, [join(ROOT, 'bench/run.mjs')], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SMOKE: '1', BENCH_OUT: out },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr, out })),
  );
}

const answer = (body: unknown, contentType = 'application/json') => ({
  headers: { 'content-type': contentType },
  body: JSON.stringify(body),
});
const ITEMS = Array.from({ length: 10 }, (_, i) => ({
  sku: `SKU-${String(i + 1).padStart(4, '0')}`,
}));
const result = (value: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  result: { content: [{ type: 'text', text: JSON.stringify(value) }] },
});

describe('the benchmark harness', () => {
  it('refuses an answer that is not the ten items as plain JSON', () => {
    expect(() => checkToolCall(answer(result({ items: ITEMS })))).not.toThrow();
    expect(() =>
      checkToolCall(answer(result({ items: ITEMS.slice(1) }))),
    ).toThrow(/10 items/);
    expect(() =>
      checkToolCall(
        answer({
          jsonrpc: '2.0',
          id: 1,
          result: { content: [{ type: 'text', text: 'x' }], isError: true },
        }),
      ),
    ).toThrow(/failed/);
    expect(() =>
      checkToolCall(answer(result({ items: ITEMS }), 'text/event-stream')),
    ).toThrow(/not plain JSON/);
  });

  it('runs every server in its tiny configuration and reports a row for each', async () => {
    const run = await runSmoke();
    expect(run.code, run.stderr).toBe(0);

    const files = readdirSync(run.out).filter((f) => f.endsWith('-smoke.json'));
    expect(files).toHaveLength(1);
    const results = JSON.parse(
      readFileSync(join(run.out, files[0]), 'utf8'),
    ) as Results;

    expect(results.mode).toBe('smoke');
    expect(results.machine.cores).toBeGreaterThan(0);
    expect(results.machine.node).toBe(process.version);
    expect(results.compare.rows.map((row) => row.id)).toEqual(
      (SERVERS as { id: string }[]).map((server) => server.id),
    );
    for (const row of results.compare.rows) {
      expect(row.checked).toBe(true);
      expect(row.rounds[0].requests).toBeGreaterThan(0);
      expect(row.rounds[0].errors + row.rounds[0].non2xx).toBe(0);
      expect(row.cpuUs).toBeGreaterThan(0);
      expect(run.stdout).toContain(row.label);
    }

    const { scale } = results;
    for (const language of ['en-US', 'zh-CN']) {
      expect(scale.many.list[language].bytes).toBeGreaterThan(
        scale.one.list[language].bytes,
      );
      expect(scale.many.list[language].rps).toBeGreaterThan(0);
      expect(scale.many.list[language].cpuUs).toBeGreaterThan(0);
    }
    expect(scale.one.bootMs).toBeGreaterThan(0);
    for (const app of [scale.one, scale.many, scale.shared]) {
      expect(app.startCpuMs).toBeGreaterThan(0);
    }
    expect(scale.shared.list['en-US'].bytes).toBeGreaterThan(
      scale.one.list['en-US'].bytes,
    );
    const { stdio } = results;
    expect(stdio.calls).toBeGreaterThan(0);
    expect(stdio.rows.map((row) => row.id)).toEqual([
      'sdk-v1',
      'sdk-v2',
      'nestops',
    ]);
    for (const row of stdio.rows) {
      expect(row.cpuUs).toBeGreaterThan(0);
      expect(row.peakRssMax).toBeGreaterThan(0);
      expect(run.stdout).toContain(row.label);
    }
    // Spawn to the first answer of the sample's stdio host, and its phases.
    expect(stdio.firstAnswer.rows.map((row) => row.id)).toEqual([
      'node',
      'host',
    ]);
    expect(stdio.firstAnswer.rows[1].cpuMs).toBeGreaterThan(0);
    for (const phase of [
      'node',
      'modules',
      'nestBeforeTypeorm',
      'typeorm',
      'migrations',
      'nestAfterTypeorm',
    ]) {
      expect(stdio.firstAnswer.breakdown[phase]).toBeGreaterThanOrEqual(0);
    }
    expect(run.stdout).toContain("where the host's start goes");
    const { memory } = results;
    expect(Object.keys(memory.servers)).toEqual(['nest-route', 'nestops']);
    for (const server of Object.values(memory.servers)) {
      expect(server.after.map((each) => each.calls)).toEqual(memory.calls);
      for (const each of server.after) expect(each.rss).toBeGreaterThan(0);
    }
    expect(results.targets.length).toBeGreaterThanOrEqual(13);
    for (const target of results.targets) {
      expect(typeof target.met).toBe('boolean');
      expect(run.stdout).toContain(target.measured);
    }
  }, 120_000);
});
