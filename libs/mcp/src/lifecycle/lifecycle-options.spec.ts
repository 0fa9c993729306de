import {
  DEFAULT_SHUTDOWN_GRACE_PERIOD,
  type McpServerLifecycleOptions,
  resolveLifecycleOptions,
} from './lifecycle-options.js';

const resolveUntyped = resolveLifecycleOptions as (
  options: Record<string, unknown>,
) => ReturnType<typeof resolveLifecycleOptions>;

describe('resolveLifecycleOptions', () => {
  it('has a 10 s grace period, no drain delay and no readiness path by default', () => {
    expect(resolveLifecycleOptions()).toEqual({
      shutdownGracePeriod: DEFAULT_SHUTDOWN_GRACE_PERIOD,
      shutdownDrainDelay: 0,
      readinessPath: undefined,
    });
    expect(DEFAULT_SHUTDOWN_GRACE_PERIOD).toBe(10_000);
  });

  it('keeps what it is given, 0 included (drop connections at once), frozen', () => {
    const options: McpServerLifecycleOptions = {
      shutdownGracePeriod: 0,
      shutdownDrainDelay: 3_000,
      readinessPath: '/ready',
    };
    const settings = resolveLifecycleOptions(options);
    expect(settings).toEqual(options);
    expect(Object.isFrozen(settings)).toBe(true);
  });

  it.each([
    ['shutdownGracePeriod', { shutdownGracePeriod: -1 }],
    ['shutdownGracePeriod', { shutdownGracePeriod: 1.5 }],
    ['shutdownGracePeriod', { shutdownGracePeriod: Number.NaN }],
    ['shutdownGracePeriod', { shutdownGracePeriod: 2 ** 31 }],
    ['shutdownGracePeriod', { shutdownGracePeriod: '10000' }],
    ['shutdownDrainDelay', { shutdownDrainDelay: -1 }],
    ['shutdownDrainDelay', { shutdownDrainDelay: 0.5 }],
    ['shutdownDrainDelay', { shutdownDrainDelay: 2 ** 31 }],
    ['shutdownDrainDelay', { shutdownDrainDelay: '3000' }],
    ['readinessPath', { readinessPath: 'ready' }],
    ['readinessPath', { readinessPath: '' }],
    ['readinessPath', { readinessPath: 5 }],
  ])('names %s in the error for %j', (option, options) => {
    expect(() => resolveUntyped(options)).toThrow(
      new RegExp(`^Invalid McpServerLifecycleModule options: .*${option}`),
    );
  });
});
