import type { CanActivate } from '@nestjs/common';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { resolveMcpOptions } from './mcp-options.resolver.js';
import { defaultPrincipalId } from '../telemetry/telemetry-options.resolver.js';
import { INPUT_LIMITS } from '@nestops/operations/internal';

class AuthGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

/** Resolves options that do not type-check, as a JavaScript caller could pass them. */
function resolveUntyped(options: Record<string, unknown>) {
  return resolveMcpOptions(options as unknown as McpModuleOptions);
}

function problemOf(options: Record<string, unknown>): string {
  try {
    resolveUntyped(options);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('resolveMcpOptions', () => {
  describe('defaults', () => {
    it.each([
      ['no options', undefined],
      ['empty options', {}],
    ])('applies every default for %s', (_case, options) => {
      const settings = resolveMcpOptions(options);

      expect(settings).toEqual({
        serverName: 'nestjs-mcp-server',
        serverVersion: '0.0.0',
        instructions: undefined,
        path: '/mcp',
        tools: {},
        allowedOrigins: undefined,
        maxBodySize: 1_048_576,
        timeout: undefined,
        authGuard: undefined,
        inputLimits: INPUT_LIMITS,
        toolListPerCaller: false,
        telemetry: {
          audit: undefined,
          auditArguments: false,
          recordPrincipal: false,
          principalId: defaultPrincipalId,
        },
        asking: { stateKeys: [], stateTtl: 600_000, runUnconfirmed: false },
        tasks: {
          engine: 'memory',
          ttl: 3_600_000,
          pollInterval: 1000,
          queueName: 'nestops-mcp-tasks',
          concurrency: 4,
        },
        resumption: {
          retainMs: 300_000,
          maxEventsPerStream: 1_000,
          maxEvents: 10_000,
          retryMs: 1_000,
          keyPrefix: 'nestops:mcp:streams:',
        },
      });
    });

    it('turns resumption off with resumption: false', () => {
      expect(resolveMcpOptions({ resumption: false }).resumption).toBe(
        undefined,
      );
    });

    it('takes serverName and serverVersion from the defaults it is given (host, package.json)', () => {
      const settings = resolveMcpOptions(
        {},
        { serverName: 'my-app', serverVersion: '9.9.9' },
      );

      expect(settings.serverName).toBe('my-app');
      expect(settings.serverVersion).toBe('9.9.9');
    });

    it('lets the options win over those defaults', () => {
      const settings = resolveMcpOptions(
        { serverName: 'desk', serverVersion: '2.0.0' },
        { serverName: 'my-app', serverVersion: '9.9.9' },
      );

      expect(settings.serverName).toBe('desk');
      expect(settings.serverVersion).toBe('2.0.0');
    });

    it('falls back to a generic name and 0.0.0 for what the defaults lack', () => {
      expect(resolveMcpOptions({}, { serverName: 'my-app' })).toMatchObject({
        serverName: 'my-app',
        serverVersion: '0.0.0',
      });
      expect(resolveMcpOptions({}, { serverVersion: '1.2.3' })).toMatchObject({
        serverName: 'nestjs-mcp-server',
        serverVersion: '1.2.3',
      });
    });

    it('omits empty instructions', () => {
      expect(resolveMcpOptions({ instructions: '' }).instructions).toBe(
        undefined,
      );
      expect(
        resolveMcpOptions({ instructions: 'Order desk' }).instructions,
      ).toBe('Order desk');
    });

    it('keeps every valid option', () => {
      const sink = { record: () => undefined };
      const resumption = {
        retainMs: 60_000,
        maxEventsPerStream: 10,
        maxEvents: 100,
        closeAfterMs: 5_000,
        retryMs: 500,
        keyPrefix: 'app:streams:',
      };
      const principalId = (principal: unknown) => String(principal);
      const settings = resolveMcpOptions({
        serverName: 'desk',
        serverVersion: '2.0.0',
        instructions: 'Order desk',
        path: '/api/v1/mcp',
        tools: { 'orders.create': 'place_order' },
        allowedOrigins: ['https://app.example.com'],
        maxBodySize: 2048,
        timeout: 1.5,
        authGuard: AuthGuard,
        inputLimits: { maxProperties: 50, maxItems: 20 },
        toolListPerCaller: true,
        telemetry: {
          audit: sink,
          auditArguments: true,
          recordPrincipal: true,
          principalId,
        },
        asking: {
          stateKeys: ['k'.repeat(32)],
          stateTtl: 60_000,
          confirm: 'destructive',
          runUnconfirmed: true,
        },
        tasks: { ttl: 60_000, pollInterval: 250, concurrency: 2 },
        resumption,
      });

      expect(settings).toEqual({
        serverName: 'desk',
        serverVersion: '2.0.0',
        instructions: 'Order desk',
        path: '/api/v1/mcp',
        tools: { 'orders.create': 'place_order' },
        allowedOrigins: ['https://app.example.com'],
        maxBodySize: 2048,
        timeout: 1.5,
        authGuard: AuthGuard,
        inputLimits: { ...INPUT_LIMITS, maxProperties: 50, maxItems: 20 },
        toolListPerCaller: true,
        telemetry: {
          audit: sink,
          auditArguments: true,
          recordPrincipal: true,
          principalId,
        },
        asking: {
          stateKeys: ['k'.repeat(32)],
          stateTtl: 60_000,
          confirm: 'destructive',
          runUnconfirmed: true,
        },
        tasks: {
          engine: 'memory',
          ttl: 60_000,
          pollInterval: 250,
          queueName: 'nestops-mcp-tasks',
          concurrency: 2,
        },
        resumption,
      });
      expect(
        resolveMcpOptions({ telemetry: { audit: true } }).telemetry,
      ).toEqual({
        audit: true,
        auditArguments: false,
        recordPrincipal: false,
        principalId: defaultPrincipalId,
      });
      expect(
        resolveMcpOptions({ telemetry: { audit: false } }).telemetry.audit,
      ).toBeUndefined();
    });

    it('returns frozen settings that do not follow later changes of the options', () => {
      const tools: Record<string, string> = { 'orders.create': 'place_order' };
      const allowedOrigins = ['https://app.example.com'];

      const settings = resolveMcpOptions({ tools, allowedOrigins });
      tools['orders.list'] = 'list_orders';
      allowedOrigins.push('https://evil.example');

      expect(Object.isFrozen(settings)).toBe(true);
      expect(Object.isFrozen(settings.tools)).toBe(true);
      expect(Object.isFrozen(settings.allowedOrigins)).toBe(true);
      expect(settings.tools).toEqual({ 'orders.create': 'place_order' });
      expect(settings.allowedOrigins).toEqual(['https://app.example.com']);
    });
  });

  describe('bad options', () => {
    it.each<[string, Record<string, unknown>]>([
      ['path', { path: 'mcp' }],
      ['path', { path: '/my mcp' }],
      ['path', { path: '/mcp?x=1' }],
      ['path', { path: 'http://host/mcp' }],
      ['path', { path: '' }],
      ['path', { path: 5 }],
      ['maxBodySize', { maxBodySize: 0 }],
      ['maxBodySize', { maxBodySize: -1 }],
      ['maxBodySize', { maxBodySize: 1.5 }],
      ['maxBodySize', { maxBodySize: Number.NaN }],
      ['maxBodySize', { maxBodySize: Number.POSITIVE_INFINITY }],
      ['maxBodySize', { maxBodySize: '1024' }],
      ['timeout', { timeout: 0 }],
      ['timeout', { timeout: -5 }],
      ['timeout', { timeout: Number.POSITIVE_INFINITY }],
      ['timeout', { timeout: Number.NaN }],
      ['timeout', { timeout: '30' }],
      ['inputLimits', { inputLimits: 5 }],
      ['inputLimits', { inputLimits: { maxProperties: 0 } }],
      ['inputLimits', { inputLimits: { maxItems: 1.5 } }],
      ['inputLimits', { inputLimits: { maxDepth: '32' } }],
      ['inputLimits', { inputLimits: { maxKeys: 10 } }],
      ['telemetry', { telemetry: 'on' }],
      ['telemetry', { telemetry: [] }],
      ['telemetry.audit', { telemetry: { audit: 'log' } }],
      ['telemetry.audit', { telemetry: { audit: {} } }],
      ['telemetry.audit', { telemetry: { audit: null } }],
      ['telemetry.auditArguments', { telemetry: { auditArguments: 'yes' } }],
      ['telemetry.recordPrincipal', { telemetry: { recordPrincipal: 1 } }],
      ['telemetry.principalId', { telemetry: { principalId: 'sub' } }],
      ['tools', { tools: 'orders.create=place_order' }],
      ['tools', { tools: ['place_order'] }],
      ['tools', { tools: 42 }],
      ['tools', { tools: { 'orders.create': 5 } }],
      ['tools', { tools: { 'orders.create': null } }],
      ['allowedOrigins', { allowedOrigins: 'https://app.example.com' }],
      ['allowedOrigins', { allowedOrigins: [1] }],
      ['allowedOrigins', { allowedOrigins: {} }],
      ['serverName', { serverName: '' }],
      ['serverName', { serverName: '   ' }],
      ['serverName', { serverName: 5 }],
      ['serverVersion', { serverVersion: '' }],
      ['instructions', { instructions: 5 }],
      ['authGuard', { authGuard: 'AuthGuard' }],
      ['authGuard', { authGuard: new AuthGuard() }],
      ['redis', { redis: 'localhost:6379' }],
      ['redis', { redis: '' }],
      ['redis', { redis: { host: '127.0.0.1' } }],
      ['redis', { redis: null }],
      [
        'redis.channelPrefix',
        { redis: { url: 'redis://h', channelPrefix: '' } },
      ],
      ['resumption', { resumption: true }],
      ['resumption', { resumption: null }],
      ['resumption.retainMs', { resumption: { retainMs: 0 } }],
      [
        'resumption.maxEventsPerStream',
        { resumption: { maxEventsPerStream: 1.5 } },
      ],
      ['resumption.maxEvents', { resumption: { maxEvents: '10' } }],
      [
        'resumption.maxEvents must be at least resumption.maxEventsPerStream',
        { resumption: { maxEvents: 10, maxEventsPerStream: 20 } },
      ],
      ['resumption.closeAfterMs', { resumption: { closeAfterMs: -1 } }],
      ['resumption.retryMs', { resumption: { retryMs: Number.NaN } }],
      ['resumption.keyPrefix', { resumption: { keyPrefix: '' } }],
    ])('names %s in the error for %j', (option, options) => {
      expect(problemOf(options)).toContain(option);
    });

    it.each(['shutdownDrainDelay', 'shutdownGracePeriod', 'readinessPath'])(
      'refuses %s, now an option of McpServerLifecycleModule, naming it',
      (option) => {
        expect(problemOf({ [option]: 1000 })).toContain(
          `${option} is an option of McpServerLifecycleModule.forRoot() now (import it next to McpModule)`,
        );
      },
    );

    it.each([
      [{ engine: 'kafka' }, "tasks.engine must be 'memory' or 'bullmq'"],
      [{ engine: 'bullmq' }, "tasks.engine 'bullmq' needs the redis option"],
      [{ ttl: 0 }, 'tasks.ttl must be a positive whole number'],
      [{ pollInterval: 1.5 }, 'tasks.pollInterval must be a positive'],
      [{ concurrency: -1 }, 'tasks.concurrency must be a positive'],
      [{ queueName: 'a b' }, 'tasks.queueName must be 1 to 100'],
    ])('refuses tasks %j, saying why', (tasks, problem) => {
      expect(problemOf({ tasks } as never)).toContain(problem);
    });

    it('names the tool whose name is not a string', () => {
      expect(problemOf({ tools: { 'orders.create': 5 } })).toContain(
        'orders.create',
      );
    });

    it('reports several problems together', () => {
      const message = problemOf({
        path: 'mcp',
        maxBodySize: 0,
        timeout: Number.POSITIVE_INFINITY,
        serverName: '',
        tools: [],
        allowedOrigins: 'x',
        authGuard: 1,
      });

      for (const option of [
        'path',
        'maxBodySize',
        'timeout',
        'serverName',
        'tools',
        'allowedOrigins',
        'authGuard',
      ]) {
        expect(message).toContain(option);
      }
    });

    it('does not blame options that are fine', () => {
      const message = problemOf({ maxBodySize: -1, path: '/mcp', timeout: 5 });

      expect(message).toContain('maxBodySize');
      expect(message).not.toContain('path');
      expect(message).not.toContain('timeout');
    });
  });
});

describe('resolveMcpOptions: redis', () => {
  it('has no relay by default, and takes a URL or { url, channelPrefix }', () => {
    expect(resolveMcpOptions().redis).toBeUndefined();
    expect(
      resolveMcpOptions({ redis: 'redis://127.0.0.1:6379' }).redis,
    ).toEqual({
      url: 'redis://127.0.0.1:6379',
      channelPrefix: 'nestops:mcp:answers:',
    });
    expect(
      resolveMcpOptions({
        redis: { url: 'rediss://user:pw@cache:6380/2', channelPrefix: 'app:' },
      }).redis,
    ).toEqual({ url: 'rediss://user:pw@cache:6380/2', channelPrefix: 'app:' });
  });
});

describe('resolveMcpOptions: cacheTtl', () => {
  it('leaves cacheTtl unset by default (the dispatcher uses DEFAULT_CACHE_TTL)', () => {
    expect(resolveMcpOptions().cacheTtl).toBeUndefined();
  });

  it.each([0, 1, 60_000, Number.MAX_SAFE_INTEGER])('takes %d', (ttl) => {
    expect(resolveMcpOptions({ cacheTtl: ttl }).cacheTtl).toBe(ttl);
  });

  it.each<[string, unknown]>([
    ['negative', -1],
    ['fractional', 1.5],
    ['not a number', '60000'],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['unsafe', 2 ** 53],
  ])('refuses a %s cacheTtl, naming it', (_case, cacheTtl) => {
    expect(problemOf({ cacheTtl })).toMatch(
      /cacheTtl must be a whole number of milliseconds, 0 or more/,
    );
  });
});

describe('defaultPrincipalId', () => {
  it.each<[unknown, string | undefined]>([
    [{ id: 'user-7', sub: 'other' }, 'user-7'],
    [{ id: 42 }, '42'],
    [{ sub: 'auth0|abc' }, 'auth0|abc'],
    [{ id: { nested: true }, sub: 'jwt-sub' }, 'jwt-sub'],
    [{ name: 'no id' }, undefined],
    ['user-7', undefined],
    [null, undefined],
  ])('reads %j as %j', (principal, id) => {
    expect(defaultPrincipalId(principal)).toBe(id);
  });
});
