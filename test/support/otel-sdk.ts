import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { TypeormInstrumentation } from '@opentelemetry/instrumentation-typeorm';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { createRequire } from 'node:module';

/**
 * The OpenTelemetry SDK of a telemetry test, registered as an app
 * registers it before its modules load: the async-hooks context manager,
 * the W3C propagator, a tracer provider exporting to memory, a meter
 * provider read into memory, and (with `instrument`) the HTTP and TypeORM
 * instrumentations. Import it first, before the app's modules.
 */
export interface OtelSdk {
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The spans of `@nestops/mcp`. */
  mcpSpans(): ReadableSpan[];
  /** Forgets the spans and metric points recorded so far. */
  reset(): Promise<void>;
  /** The metrics collected now. */
  collect(): Promise<ResourceMetrics[]>;
}

export function registerOtelSdk(instrument: boolean): OtelSdk {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    }),
  );
  const metricExporter = new InMemoryMetricExporter(
    AggregationTemporality.DELTA,
  );
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  if (instrument) {
    // The test's own requests are not what is traced.
    new HttpInstrumentation({ ignoreOutgoingRequestHook: () => true });
    new TypeormInstrumentation();
    // Core modules already loaded are patched on their next require.
    createRequire(__filename)('node:http');
  }
  return {
    spans: () => exporter.getFinishedSpans(),
    mcpSpans: () =>
      exporter
        .getFinishedSpans()
        .filter((span) => span.instrumentationScope.name === '@nestops/mcp'),
    reset: async () => {
      await reader.forceFlush();
      exporter.reset();
      metricExporter.reset();
    },
    collect: async () => {
      await reader.forceFlush();
      const collected = metricExporter.getMetrics();
      metricExporter.reset();
      return collected;
    },
  };
}
