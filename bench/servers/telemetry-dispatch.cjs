// In-process `tools/call` through McpDispatcher (no HTTP, no load
// generator): the app of nestops-app.cjs initialised, BENCH_WARMUP calls,
// then BENCH_CALLS calls, 16 in flight; prints one JSON line with the
// process's CPU time and the wall time per call. Run with
// `-r ./otel-mode.cjs` and BENCH_OTEL by bench/telemetry.mjs.
const { NestFactory } = require('@nestjs/core');
const { McpDispatcher } = require('@nestops/mcp/internal');
const { LibraryModule } = require('./nestops-app.cjs');

const WARMUP = Number(process.env.BENCH_WARMUP ?? 5000);
const CALLS = Number(process.env.BENCH_CALLS ?? 30000);
const IN_FLIGHT = 16;
const message = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'items_list', arguments: { category: 'tools', limit: 10 } },
};
const caller = {
  headers: {
    authorization: 'ApiKey bench-key',
    'mcp-protocol-version': '2025-11-25',
  },
};

async function calls(dispatcher, count) {
  let next = 0;
  const worker = async () => {
    while (next++ < count) {
      const answer = await dispatcher.dispatch(message, caller);
      if (!answer?.result || answer.result.isError) {
        throw new Error(`tools/call failed: ${JSON.stringify(answer)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function main() {
  const app = await NestFactory.create(LibraryModule, { logger: false });
  await app.init();
  const dispatcher = app.get(McpDispatcher);
  await calls(dispatcher, WARMUP);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await calls(dispatcher, CALLS);
  const wallNs = Number(process.hrtime.bigint() - started);
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({
      cpuUs: (used.user + used.system) / CALLS,
      wallUs: wallNs / 1000 / CALLS,
    })}\n`,
  );
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
