// OpenTelemetry for a Nest app, registered before the app loads
// (`node -r ./examples/telemetry/console-tracing.cjs dist/src/main.js`):
// the async-hooks context manager, the W3C propagator, every span printed
// to the console as it ends, and the HTTP instrumentation, so that each
// MCP request's span sits under its POST's. An app does the same with its
// own exporter (OTLP to a collector, say) in place of the console's.
const { context, propagation, trace } = require('@opentelemetry/api');
const {
  AsyncLocalStorageContextManager,
} = require('@opentelemetry/context-async-hooks');
const { W3CTraceContextPropagator } = require('@opentelemetry/core');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const {
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} = require('@opentelemetry/sdk-trace');

context.setGlobalContextManager(new AsyncLocalStorageContextManager());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(
  new TracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }),
    ],
  }),
);
new HttpInstrumentation();
