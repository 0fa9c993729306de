import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ContextIdFactory } from '@nestjs/core';
import { IncomingMessage } from 'node:http';
import { getInvocationContext } from '@nestops/operations';
import {
  CapturingLogger,
  DurableAppModule,
  PipelineAppModule,
  PRINCIPALS,
  Recorder,
  ScopedGlobalGuardAppModule,
  ScopedGlobalInterceptorAppModule,
  TenantContextIdStrategy,
  type EchoReport,
  type ScopeReport,
  type TraceReport,
} from '../fixtures/pipeline-fixtures';
import type { ToolResult } from '../support/json-rpc-shapes';
import { errorText, resultJson, mcpHttp } from '../support/mcp-http';
import { startApp, type RunningApp, useApp } from '../support/start-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMEOUT_MS = 30_000;
/**
 * Nest's static Logger follows the last app created, so every app of this
 * file logs into the same capturing logger.
 */
const logger = new CapturingLogger();

describe('the pipeline of a tools/call', () => {
  let running: RunningApp;
  let recorder: Recorder;

  beforeAll(async () => {
    running = await startApp(
      PipelineAppModule.register({
        serverName: 'pipeline-fixture',
        tools: { 'pipeline.trace': 'trace_call' },
        timeout: TIMEOUT_MS,
      }),
      { logger },
    );
    recorder = running.app.get(Recorder);
  });
  afterAll(async () => {
    await running?.close();
  });

  const call = (
    name: string,
    args: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => mcpHttp(running.baseUrl).callTool(name, args, headers);

  describe("the app's guards, interceptors and pipes", () => {
    it('runs global, class and method guards, then the interceptor, then the pipes, then the handler', async () => {
      const correlationId = 'order-of-steps-1';
      const report = resultJson<TraceReport>(
        await call(
          'trace_call',
          { note: 'hello' },
          { 'x-correlation-id': correlationId },
        ),
      );

      expect(report.note).toBe('hello');
      expect(recorder.stepsOf(correlationId)).toEqual([
        'global-guard',
        'class-guard',
        'method-guard',
        'interceptor:before',
        'global-pipe',
        'method-pipe',
        'handler',
        'interceptor:after',
      ]);
    });

    it('lets an HTTP guard authenticate from Authorization and hands the principal to the handler', async () => {
      const writer = resultJson<TraceReport>(
        await call('trace_call', {}, { authorization: 'Bearer writer-token' }),
      );
      const reader = resultJson<TraceReport>(
        await call('trace_call', {}, { authorization: 'Bearer reader-token' }),
      );
      const anonymous = resultJson<TraceReport>(await call('trace_call'));

      expect(writer.principal).toEqual(PRINCIPALS.get('Bearer writer-token'));
      expect(reader.principal).toEqual(PRINCIPALS.get('Bearer reader-token'));
      expect(anonymous.principal).toBeNull();
    });

    it('maps an UnauthorizedException of the HTTP guard to SECURITY_DENIED_003', async () => {
      const result = await call(
        'trace_call',
        {},
        { authorization: 'Bearer forged-token' },
      );

      expect(errorText(result)).toMatch(/^SECURITY_DENIED_003: /);
    });

    it('answers SECURITY_DENIED_001 when a method guard returns false, without running the handler', async () => {
      const correlationId = 'denied-by-guard-1';
      const result = await call(
        'pipeline_forbidden',
        {},
        { 'x-correlation-id': correlationId },
      );

      expect(result.isError).toBe(true);
      expect(errorText(result)).toBe('SECURITY_DENIED_001: Access denied.');
      expect(recorder.stepsOf(correlationId)).toEqual([
        'global-guard',
        'class-guard',
        'deny-guard',
      ]);
    });
  });

  describe('the invocation context', () => {
    const SEEN_BY = [
      'global-guard',
      'class-guard',
      'method-guard',
      'interceptor:before',
      'global-pipe',
      'method-pipe',
      'handler',
    ];

    it('is the same for guards, interceptor, pipes and handler, from the MCP headers', async () => {
      const correlationId = 'context-check-1';
      const before = Date.now();
      const report = resultJson<TraceReport>(
        await call(
          'trace_call',
          {},
          {
            'x-tenant-id': 'tenant-ctx',
            'x-correlation-id': correlationId,
            'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
          },
        ),
      );
      const after = Date.now();

      const expected = {
        carrier: 'mcp',
        target: 'trace_call',
        operationId: 'pipeline.trace',
        tenant: 'tenant-ctx',
        correlationId,
        locale: 'zh-CN',
        aborted: false,
      };
      expect(report.context).toMatchObject(expected);
      const seen = SEEN_BY.map(
        (step) => recorder.eventOf(correlationId, step)?.context,
      );
      for (const context of seen) {
        expect(context).toEqual(report.context);
      }
      const deadline = Date.parse(String(report.context.deadline));
      expect(deadline).toBeGreaterThanOrEqual(before + TIMEOUT_MS);
      expect(deadline).toBeLessThanOrEqual(after + TIMEOUT_MS);
    });

    it('generates a UUID correlation id per call when none is given, and defaults the locale', async () => {
      const first = resultJson<TraceReport>(await call('trace_call'));
      const second = resultJson<TraceReport>(await call('trace_call'));

      expect(first.context.correlationId).toMatch(UUID);
      expect(second.context.correlationId).toMatch(UUID);
      expect(first.context.correlationId).not.toBe(
        second.context.correlationId,
      );
      expect(first.context).toMatchObject({
        tenant: null,
        locale: 'en-US',
        aborted: false,
      });
      const guardSaw = recorder.eventOf(
        first.context.correlationId,
        'global-guard',
      );
      const interceptorSaw = recorder.eventOf(
        first.context.correlationId,
        'interceptor:before',
      );
      expect(guardSaw?.context).toEqual(first.context);
      expect(interceptorSaw?.context).toEqual(first.context);
    });

    it('has no deadline when McpModule has no timeout', async () => {
      const untimed = await startApp(PipelineAppModule.register({}), {
        logger,
      });
      try {
        const report = resultJson<TraceReport>(
          await mcpHttp(untimed.baseUrl).callTool('pipeline_trace'),
        );
        expect(report.context).toMatchObject({
          target: 'pipeline_trace',
          deadline: null,
          aborted: false,
        });
      } finally {
        await untimed.close();
      }
    });
  });

  describe('request-scoped providers', () => {
    async function connect(): Promise<Client> {
      const client = new Client({ name: 'pipeline-spec', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
          requestInit: { headers: { 'x-tenant-id': 'scoped-tenant' } },
        }),
      );
      return client;
    }

    async function sdkCall(client: Client, name: string): Promise<ScopeReport> {
      const result = (await client.callTool({
        name,
        arguments: {},
      })) as ToolResult;
      return resultJson<ScopeReport>(result);
    }

    it.each(['scope_explicit', 'scope_implicit'])(
      '%s gets fresh instances and the per-call request on every call of one session',
      async (tool) => {
        const client = await connect();
        try {
          const first = await sdkCall(client, tool);
          const second = await sdkCall(client, tool);

          for (const report of [first, second]) {
            expect(report.requestIsIncomingMessage).toBe(false);
            expect(report.requestIsOuterRequest).toBe(false);
            expect(report.hostSharesRequest).toBe(true);
            expect(report.requestCorrelationId).toBe(
              report.contextCorrelationId,
            );
          }
          expect(second.serial).not.toBe(first.serial);
          expect(second.hostSerial).not.toBe(first.hostSerial);
          expect(second.contextCorrelationId).not.toBe(
            first.contextCorrelationId,
          );

          const requestsOf = (correlationId: string) =>
            recorder.scopedRequests.filter(
              (request) =>
                getInvocationContext(request)?.correlationId === correlationId,
            );
          const firstRequests = requestsOf(first.contextCorrelationId);
          const secondRequests = requestsOf(second.contextCorrelationId);
          expect(firstRequests).toHaveLength(1);
          expect(secondRequests).toHaveLength(1);
          expect(firstRequests[0]).not.toBe(secondRequests[0]);
        } finally {
          await client.close();
        }
        // The outer requests were seen by the app's middleware, as real HTTP requests.
        expect(recorder.outerRequests.size).toBeGreaterThan(0);
        for (const outer of recorder.outerRequests) {
          expect(outer).toBeInstanceOf(IncomingMessage);
        }
      },
    );

    it('keeps a transient dependency of a singleton for the life of the app', async () => {
      const first = resultJson<{ helperSerial: number }>(
        await call('transient_get'),
      );
      const second = resultJson<{ helperSerial: number }>(
        await call('transient_get'),
      );

      expect(first.helperSerial).toEqual(expect.any(Number));
      expect(second.helperSerial).toBe(first.helperSerial);
    });
  });

  describe('concurrency', () => {
    it('keeps tenant and correlation id of 200 concurrent calls across 4 tenants apart', async () => {
      const tenants = ['tenant-1', 'tenant-2', 'tenant-3', 'tenant-4'];
      const calls = tenants.flatMap((tenant) =>
        Array.from({ length: 50 }, (_, index) => ({
          tenant,
          correlationId: `${tenant}-call-${index}`,
          sequence: tenants.indexOf(tenant) * 50 + index,
        })),
      );

      const results = await Promise.all(
        calls.map(({ tenant, correlationId, sequence }) =>
          call(
            'tenancy_echo',
            { sequence, pauseMs: sequence % 5 },
            { 'x-tenant-id': tenant, 'x-correlation-id': correlationId },
          ),
        ),
      );

      const reports = results.map((result) => resultJson<EchoReport>(result));
      reports.forEach((report, index) => {
        const { tenant, correlationId, sequence } = calls[index];
        expect(report).toEqual({
          sequence,
          serial: expect.any(Number),
          scope: { tenant, correlationId },
          context: { tenant, correlationId },
        });
      });
      expect(new Set(reports.map((report) => report.serial)).size).toBe(200);
      expect(recorder.maxInFlight).toBeGreaterThan(1);
    });
  });

  describe('the authorization contract and failures', () => {
    it('names the first missing permission', async () => {
      const correlationId = 'missing-permission-1';
      const result = await call(
        'a_write',
        {},
        {
          authorization: 'Bearer reader-token',
          'x-correlation-id': correlationId,
        },
      );

      expect(result.isError).toBe(true);
      expect(errorText(result)).toBe(
        "SECURITY_DENIED_004: Permission 'a.write' is missing.",
      );
      // The app's guard authenticated first; the handler never ran.
      expect(recorder.stepsOf(correlationId)).toEqual(['global-guard']);
    });

    it('requires authentication when a permission is declared', async () => {
      const result = await call('a_write');

      expect(errorText(result)).toBe(
        'SECURITY_DENIED_003: Authentication is required.',
      );
    });

    it('runs the operation when the principal holds every permission', async () => {
      const result = await call(
        'a_write',
        {},
        { authorization: 'Bearer writer-token' },
      );

      expect(result.isError).toBeFalsy();
      expect(resultJson<{ by: string }>(result)).toEqual({ by: 'writer' });
    });

    it('enforces the policy', async () => {
      const denied = await call('a_audit', {}, { 'x-tenant-id': 'other' });
      const allowed = await call('a_audit', {}, { 'x-tenant-id': 'acme' });

      expect(errorText(denied)).toBe(
        'SECURITY_DENIED_002: The policy of this operation denied the call.',
      );
      expect(resultJson<{ tenant: string }>(allowed)).toEqual({
        tenant: 'acme',
      });
    });

    it('maps NotFoundException and ConflictException with their messages', async () => {
      expect(errorText(await call('failures_not-found'))).toBe(
        'BUSINESS_NOTFOUND_001: Order 42 does not exist.',
      );
      expect(errorText(await call('failures_conflict'))).toBe(
        'BUSINESS_CONFLICT_001: Order 42 is already shipped.',
      );
    });

    it('hides an unexpected error behind INTERNAL_ERROR_001 and logs it with the correlation id', async () => {
      const correlationId = 'crash-1';
      const text = errorText(
        await call('failures_crash', {}, { 'x-correlation-id': correlationId }),
      );

      expect(text).toMatch(/^INTERNAL_ERROR_001: /);
      expect(text).toContain(correlationId);
      expect(text).not.toContain('secret internals');
      expect(text).not.toMatch(/\bat .+:\d+:\d+/);
      expect(text).not.toContain('Error:');
      const logged = logger.errors.filter((entry) =>
        entry.includes(correlationId),
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('secret internals');
    });
  });

  describe('result mapping', () => {
    it('gives an object result as text and as equal structuredContent', async () => {
      const result = await call('results_object');

      expect(result.isError).toBeFalsy();
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      expect(result.structuredContent).toEqual(
        JSON.parse(result.content[0].text),
      );
      expect(result.structuredContent).toEqual({
        id: 7,
        name: 'Ada',
        tags: ['a', 'b'],
        nested: { ok: true, count: 2, nothing: null },
      });
    });

    it('gives an array result as text only', async () => {
      const result = await call('results_array');

      expect(JSON.parse(result.content[0].text)).toEqual([
        { id: 1 },
        { id: 2 },
      ]);
      expect(result).not.toHaveProperty('structuredContent');
    });

    it('gives a scalar result as text only', async () => {
      const result = await call('results_number');

      expect(JSON.parse(result.content[0].text)).toBe(42);
      expect(result).not.toHaveProperty('structuredContent');
    });

    it('serialises class instances with class-transformer', async () => {
      const instance = await call('results_instance');
      const nested = await call('results_nested');

      expect(JSON.parse(instance.content[0].text)).toEqual({
        id: 1,
        name: 'Ada',
      });
      expect(instance.structuredContent).toEqual({ id: 1, name: 'Ada' });
      expect(nested.structuredContent).toEqual({
        owner: { id: 1, name: 'Ada' },
        members: [{ id: 2, name: 'Grace' }],
      });
      expect(nested.content[0].text).not.toContain('hash-of');
    });
  });
});

describe.each([
  {
    kind: 'guard (APP_GUARD)',
    module: ScopedGlobalGuardAppModule,
    step: 'scoped-global-guard',
  },
  {
    kind: 'interceptor (APP_INTERCEPTOR)',
    module: ScopedGlobalInterceptorAppModule,
    step: 'scoped-global-interceptor',
  },
])('a request-scoped global $kind', ({ module, step }) => {
  let running: RunningApp;
  let recorder: Recorder;

  beforeAll(async () => {
    running = await startApp(module, { logger });
    recorder = running.app.get(Recorder);
  });
  afterAll(async () => {
    await running?.close();
  });

  it("runs on a singleton provider's operation, built with the per-call request", async () => {
    const correlationId = `${step}-1`;
    const result = await mcpHttp(running.baseUrl).callTool(
      'singleton_ping',
      {},
      { 'x-correlation-id': correlationId },
    );

    expect(result).toEqual({
      content: [{ type: 'text', text: '{"pong":true}' }],
      structuredContent: { pong: true },
    });
    expect(recorder.stepsOf(correlationId)).toEqual([step, 'handler']);
  });
});

describe('a request-scoped global guard that returns false', () => {
  const running = useApp(() =>
    startApp(ScopedGlobalGuardAppModule, { logger }),
  );

  it('denies the call', async () => {
    const result = await mcpHttp(running().baseUrl).callTool(
      'singleton_ping',
      {},
      { 'x-deny': 'yes' },
    );

    expect(errorText(result)).toBe('SECURITY_DENIED_001: Access denied.');
  });
});

describe('a durable provider', () => {
  const strategy = new TenantContextIdStrategy();
  let running: RunningApp;

  beforeAll(async () => {
    ContextIdFactory.apply(strategy);
    running = await startApp(DurableAppModule, { logger });
  });
  afterAll(async () => {
    strategy.enabled = false;
    await running?.close();
  });

  interface LedgerReport {
    readonly serial: number;
    readonly tenant: string;
    readonly contextTenant: string | null;
  }

  const ledger = async (tenant: string) =>
    resultJson<LedgerReport>(
      await mcpHttp(running.baseUrl).callTool(
        'ledger_get',
        {},
        { 'x-tenant-id': tenant },
      ),
    );

  it('is shared by the calls of one tenant and separate per tenant', async () => {
    const a1 = await ledger('tenant-a');
    const a2 = await ledger('tenant-a');
    const b1 = await ledger('tenant-b');

    expect(a1).toMatchObject({ tenant: 'tenant-a', contextTenant: 'tenant-a' });
    expect(b1).toMatchObject({ tenant: 'tenant-b', contextTenant: 'tenant-b' });
    expect(a2.serial).toBe(a1.serial);
    expect(b1.serial).not.toBe(a1.serial);
  });

  it("gives a non-durable provider of the same call the call's request merged with the payload, as Nest's router does", async () => {
    const desk = resultJson<{ payloadTenant: string; isCallRequest: boolean }>(
      await mcpHttp(running.baseUrl).callTool(
        'desk_get',
        {},
        { 'x-tenant-id': 't-9' },
      ),
    );

    expect(desk).toEqual({ payloadTenant: 't-9', isCallRequest: true });
  });
});
