import type * as OtelApi from '@opentelemetry/api';

/** The optional peer spans and metrics are made with. */
const OTEL_API = '@opentelemetry/api';

/** The instrumentation scope of the spans and metrics. */
const SCOPE = '@nestops/mcp';

/**
 * The conventions' bucket boundaries of `mcp.server.operation.duration`,
 * in seconds.
 */
export const DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/**
 * @internal What calls are observed with: the API, the tracer when the app
 * registered a tracer provider, the instruments when it registered a meter
 * provider.
 */
export interface OtelInstruments {
  readonly api: typeof OtelApi;
  readonly tracer: OtelApi.Tracer | undefined;
  readonly duration: OtelApi.Histogram | undefined;
  readonly calls: OtelApi.Counter | undefined;
}

/**
 * @internal The app's OpenTelemetry, looked up once: undefined where
 * `@opentelemetry/api` is not installed, or where the app registered
 * neither a tracer nor a meter provider (then nothing would record what
 * the library made, so it makes nothing). `load` is a `require` of the
 * package, named literally so that bundlers see an optional dependency.
 */
export function findOtel(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only if installed
  load: () => unknown = () => require('@opentelemetry/api'),
): OtelInstruments | undefined {
  const api = loadApi(load);
  if (!api) {
    return undefined;
  }
  const tracer = registeredTracer(api);
  const meter = api.metrics.getMeter(SCOPE);
  const metered = meter !== api.createNoopMeter();
  if (!tracer && !metered) {
    return undefined;
  }
  return {
    api,
    tracer,
    duration: metered
      ? meter.createHistogram('mcp.server.operation.duration', {
          description:
            'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
          unit: 's',
          advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
        })
      : undefined,
    calls: metered
      ? meter.createCounter('nestops.mcp.tool.calls', {
          description: 'Tool calls, by tool and outcome.',
          unit: '{call}',
        })
      : undefined,
  };
}

/**
 * The tracer of the registered tracer provider, or undefined when there
 * is none: the API's global provider is a proxy whose delegate tracer is
 * undefined until an SDK registers one.
 */
function registeredTracer(api: typeof OtelApi): OtelApi.Tracer | undefined {
  const provider = api.trace.getTracerProvider() as OtelApi.TracerProvider & {
    getDelegateTracer?: (name: string) => OtelApi.Tracer | undefined;
  };
  return typeof provider.getDelegateTracer === 'function'
    ? provider.getDelegateTracer(SCOPE)
    : provider.getTracer(SCOPE);
}

function loadApi(load: () => unknown): typeof OtelApi | undefined {
  try {
    return load() as typeof OtelApi;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (
      code === 'MODULE_NOT_FOUND' &&
      String(message).split('\n')[0].includes(`'${OTEL_API}'`)
    ) {
      return undefined;
    }
    throw error;
  }
}
