import * as api from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { findOtel } from './otel-api.js';

/**
 * When calls are observed at all: only where `@opentelemetry/api` is
 * installed and the app registered an SDK (this file's process starts
 * with none).
 */

function missing(name: string): Error {
  return Object.assign(
    new Error(`Cannot find module '${name}'\nRequire stack:\n- x`),
    {
      code: 'MODULE_NOT_FOUND',
    },
  );
}

describe('findOtel', () => {
  afterEach(() => {
    api.trace.disable();
    api.metrics.disable();
  });

  it('is undefined without @opentelemetry/api', () => {
    expect(
      findOtel(() => {
        throw missing('@opentelemetry/api');
      }),
    ).toBeUndefined();
  });

  it('fails when the package is there but one of its own modules is not', () => {
    expect(() =>
      findOtel(() => {
        throw missing('./dist/index.cjs');
      }),
    ).toThrow(/dist\/index\.cjs/);
  });

  it('is undefined with the API but no SDK registered', () => {
    expect(findOtel(() => api)).toBeUndefined();
  });

  it('has a tracer and no instruments with only a tracer provider', () => {
    api.trace.setGlobalTracerProvider(new TracerProvider());
    const found = findOtel(() => api);
    expect(found?.tracer).toBeDefined();
    expect(found?.duration).toBeUndefined();
    expect(found?.calls).toBeUndefined();
  });

  it('has the instruments and no tracer with only a meter provider', () => {
    api.metrics.setGlobalMeterProvider(new MeterProvider());
    const found = findOtel(() => api);
    expect(found?.tracer).toBeUndefined();
    expect(found?.duration).toBeDefined();
    expect(found?.calls).toBeDefined();
  });
});
