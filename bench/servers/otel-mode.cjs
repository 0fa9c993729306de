// Preloaded (`node -r`) into a benchmark server to set up OpenTelemetry as
// BENCH_OTEL says, before the app loads:
//   absent  `@opentelemetry/api` cannot be resolved, as in an app that does
//           not install it (the library sees MODULE_NOT_FOUND)
//   off     the API is installed but no SDK is registered
//   on      the SDK registered as an app does: the async-hooks context
//           manager, the W3C propagator, a tracer provider with a batch
//           processor and a meter provider with a periodic reader, both
//           exporting to an exporter that drops everything (no-op), so
//           what is measured is the spans and points being made, not sent
// BENCH_AUDIT=1 (read by nestops-app.cjs) adds an audit sink that drops
// every event.
const Module = require('node:module');

const mode = process.env.BENCH_OTEL;
const API = '@opentelemetry/api';

if (mode === 'absent') {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === API) {
      const error = new Error(`Cannot find module '${API}'`);
      error.code = 'MODULE_NOT_FOUND';
      throw error;
    }
    return resolve.call(this, request, ...rest);
  };
} else if (mode === 'on') {
  const { context, metrics, propagation, trace } = require(API);
  const {
    AsyncLocalStorageContextManager,
  } = require('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core');
  const {
    BatchSpanProcessor,
    TracerProvider,
  } = require('@opentelemetry/sdk-trace');
  const {
    MeterProvider,
    PeriodicExportingMetricReader,
  } = require('@opentelemetry/sdk-metrics');
  const dropped = (done) => done({ code: 0 });
  const noop = {
    export: (_items, done) => dropped(done),
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new TracerProvider({
      spanProcessors: [
        new BatchSpanProcessor({ exporter: noop, scheduledDelayMillis: 200 }),
      ],
    }),
  );
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({
          exporter: noop,
          exportIntervalMillis: 1000,
        }),
      ],
    }),
  );
} else if (mode !== 'off') {
  throw new Error(`BENCH_OTEL must be absent, off or on (got ${mode})`);
}
