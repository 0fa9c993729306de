// The SDK first: the instrumentations patch what the app loads after it.
import { otel } from '../support/otel-sdk-instrumented';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  KeptAuditEvents,
  TELEMETRY_TOKEN,
  TelemetryAppModule,
} from '../fixtures/telemetry-fixtures';
import { ClientV1 } from '../support/mcp-clients';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ACCEPT_BOTH, mcpHttp } from '../support/mcp-http';
import { modernRequest } from '../support/modern-mcp';
import { startApp, useApp } from '../support/start-app';

/**
 * OpenTelemetry spans and metrics of MCP calls over Streamable HTTP, with
 * the real SDK and the HTTP and TypeORM instrumentations registered, and
 * the audit trail to a sink of the test's own.
 */

const audit = new KeptAuditEvents();
const running = useApp(() => startApp(TelemetryAppModule.register({ audit })));

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';

/** A v1 SDK client of the app, connected, sending `headers` on every POST. */
async function client(headers: Record<string, string> = {}) {
  const connected = new ClientV1({ name: 'telemetry-e2e', version: '1.0.0' });
  await connected.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', running().baseUrl), {
      requestInit: { headers },
    }),
  );
  return connected;
}

/** The one span of `@nestops/mcp` named `name`. */
function onlySpan(name: string): ReadableSpan {
  const found = otel.mcpSpans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0];
}

const HTTP_CALL = {
  'mcp.method.name': 'tools/call',
  'gen_ai.operation.name': 'execute_tool',
  'network.transport': 'tcp',
  'network.protocol.name': 'http',
  'client.address': '127.0.0.1',
};

let mcp: Awaited<ReturnType<typeof client>>;
let version: string;

beforeEach(async () => {
  mcp ??= await client({
    authorization: TELEMETRY_TOKEN,
    'x-tenant-id': 'acme',
    'x-correlation-id': 'corr-1',
  });
  version ??= String(
    (onlySpan('initialize').attributes as Record<string, unknown>)[
      'mcp.protocol.version'
    ],
  );
  await otel.reset();
  audit.events.length = 0;
});

describe('spans', () => {
  it('a successful call: one server span under the POST, its TypeORM query under it', async () => {
    const result = await mcp.callTool({
      name: 'notes_add',
      arguments: { text: 'hello' },
    });
    expect(result.isError).toBeUndefined();

    const span = onlySpan('tools/call notes_add');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({
      ...HTTP_CALL,
      'gen_ai.tool.name': 'notes_add',
      'mcp.protocol.version': version,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'nestops.operation.id': 'notes.add',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);

    const post = otel
      .spans()
      .find(
        (each) =>
          each.instrumentationScope.name ===
            '@opentelemetry/instrumentation-http' &&
          each.spanContext().traceId === span.spanContext().traceId,
      );
    expect(post?.kind).toBe(SpanKind.SERVER);
    expect(span.parentSpanContext?.spanId).toBe(post?.spanContext().spanId);

    const queries = otel
      .spans()
      .filter(
        (each) =>
          each.instrumentationScope.name ===
          '@opentelemetry/instrumentation-typeorm',
      );
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.spanContext().traceId).toBe(span.spanContext().traceId);
    }
    expect(
      queries.some(
        (query) =>
          query.parentSpanContext?.spanId === span.spanContext().spanId,
      ),
    ).toBe(true);
  });

  it('an isError call: the failure code as error.type, status ERROR', async () => {
    const result = await mcp.callTool({ name: 'notes_get', arguments: {} });
    expect(result.isError).toBe(true);

    const span = onlySpan('tools/call notes_get');
    expect(span.attributes).toEqual({
      ...HTTP_CALL,
      'gen_ai.tool.name': 'notes_get',
      'mcp.protocol.version': version,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'nestops.operation.id': 'notes.get',
      'error.type': 'BUSINESS_NOTFOUND_001',
    });
    expect(span.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'BUSINESS_NOTFOUND_001',
    });
  });

  it('a protocol error: its catalogue code as error.type, the JSON-RPC code as the status code, no tool named after what the caller made up', async () => {
    await expect(
      mcp.callTool({ name: 'no_such_tool', arguments: {} }),
    ).rejects.toThrow(/-32602/);

    const span = onlySpan('tools/call');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'client.address': '127.0.0.1',
      'mcp.protocol.version': version,
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
      'error.type': 'PROTOCOLS_NOTFOUND_002',
      'rpc.response.status_code': '-32602',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/no_such_tool/);
  });

  it('the trace context in params._meta is the parent; the POST is linked', async () => {
    await mcp.callTool({
      name: 'notes_get',
      arguments: {},
      _meta: {
        traceparent: `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`,
        tracestate: 'rojo=00f067aa0ba902b7',
      },
    });

    const span = onlySpan('tools/call notes_get');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({
      traceId: TRACE_ID,
      spanId: PARENT_SPAN_ID,
      isRemote: true,
    });
    expect(span.parentSpanContext?.traceState?.get('rojo')).toBe(
      '00f067aa0ba902b7',
    );
    const post = otel
      .spans()
      .find(
        (each) =>
          each.instrumentationScope.name ===
          '@opentelemetry/instrumentation-http',
      );
    expect(span.links.map((link) => link.context.spanId)).toEqual([
      post?.spanContext().spanId,
    ]);
  });

  it('tools/list, initialize and server/discover get spans of their own', async () => {
    await mcp.listTools();
    expect(onlySpan('tools/list').attributes).toMatchObject({
      'mcp.method.name': 'tools/list',
    });
    expect(onlySpan('tools/list').attributes).not.toHaveProperty(
      'gen_ai.operation.name',
    );
    const reply = await mcpHttp(running().baseUrl).post(
      modernRequest(1, 'server/discover'),
      ACCEPT_BOTH,
      { modern: true },
    );
    expect(reply.status).toBe(200);
    expect(onlySpan('server/discover').attributes).toMatchObject({
      'mcp.method.name': 'server/discover',
      'mcp.protocol.version': '2026-07-28',
    });
  });
});

describe('metrics', () => {
  it('mcp.server.operation.duration: one value per call, in seconds, with the conventions buckets', async () => {
    await mcp.callTool({ name: 'notes_add', arguments: { text: 'a' } });
    await mcp.callTool({ name: 'notes_get', arguments: {} });
    await mcp.callTool({ name: 'notes_get', arguments: {} });

    const collected = (await otel.collect()).flatMap((resource) =>
      resource.scopeMetrics
        .filter((scope) => scope.scope.name === '@nestops/mcp')
        .flatMap((scope) => scope.metrics),
    );
    const duration = collected.find(
      (metric) => metric.descriptor.name === 'mcp.server.operation.duration',
    );
    expect(duration?.descriptor.unit).toBe('s');
    const points = (duration?.dataPoints ?? []).map((point) => ({
      attributes: point.attributes,
      count: (point.value as { count: number }).count,
      boundaries: (point.value as { buckets: { boundaries: number[] } }).buckets
        .boundaries,
    }));
    const base = {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': version,
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    };
    const buckets = [
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ];
    expect(points).toEqual(
      expect.arrayContaining([
        {
          attributes: { ...base, 'gen_ai.tool.name': 'notes_add' },
          count: 1,
          boundaries: buckets,
        },
        {
          attributes: {
            ...base,
            'gen_ai.tool.name': 'notes_get',
            'error.type': 'BUSINESS_NOTFOUND_001',
          },
          count: 2,
          boundaries: buckets,
        },
      ]),
    );
    expect(points).toHaveLength(2);

    const calls = collected.find(
      (metric) => metric.descriptor.name === 'nestops.mcp.tool.calls',
    );
    expect(
      calls?.dataPoints.map((point) => [point.attributes, point.value]),
    ).toEqual(
      expect.arrayContaining([
        [{ 'gen_ai.tool.name': 'notes_add', 'nestops.call.outcome': 'ok' }, 1],
        [
          {
            'gen_ai.tool.name': 'notes_get',
            'nestops.call.outcome': 'BUSINESS_NOTFOUND_001',
          },
          2,
        ],
      ]),
    );
  });
});

describe('prompts', () => {
  it('prompts/get: a span named by the prompt, with gen_ai.prompt.name, and one audit event', async () => {
    await mcp.getPrompt({ name: 'note-summary' });
    const span = onlySpan('prompts/get note-summary');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'note-summary',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(audit.events).toEqual([
      expect.objectContaining({
        principalId: 'user-7',
        tenant: 'acme',
        tool: null,
        operationId: null,
        prompt: 'note-summary',
        outcome: 'ok',
      }),
    ]);
  });

  it('a denied prompt: unknown on the wire, its denial code in the span and the audit event', async () => {
    await expect(mcp.getPrompt({ name: 'note-purge' })).rejects.toMatchObject({
      code: -32602,
    });
    const span = onlySpan('prompts/get note-purge');
    expect(span.attributes).toMatchObject({
      'error.type': 'SECURITY_DENIED_004',
      'rpc.response.status_code': '-32602',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(audit.events).toEqual([
      expect.objectContaining({
        prompt: 'note-purge',
        outcome: 'SECURITY_DENIED_004',
      }),
    ]);
  });

  it('an unknown prompt names no span after it', async () => {
    await expect(mcp.getPrompt({ name: 'made-up' })).rejects.toMatchObject({
      code: -32602,
    });
    const span = onlySpan('prompts/get');
    expect(span.attributes['gen_ai.prompt.name']).toBeUndefined();
  });
});

describe('resources/read', () => {
  it('a span named by the conventions, with the URI and the operation; the duration metric by method', async () => {
    await mcp.readResource({ uri: 'notes://count' });

    const span = onlySpan('resources/read');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'notes://count',
      'nestops.operation.id': 'notes.count',
    });
    expect(span.attributes['gen_ai.tool.name']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a read answered as not found records the operation's own failure", async () => {
    await expect(
      mcp.readResource({ uri: 'notes://missing' }),
    ).rejects.toMatchObject({ code: -32002 });

    const span = onlySpan('resources/read');
    expect(span.attributes).toMatchObject({
      'mcp.resource.uri': 'notes://missing',
      'error.type': 'BUSINESS_NOTFOUND_001',
      'rpc.response.status_code': '-32002',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('one audit event per read: the URI, the operation, the outcome', async () => {
    await mcp.readResource({ uri: 'notes://count' });
    await mcp.readResource({ uri: 'notes://missing' }).catch(() => undefined);
    await mcp.readResource({ uri: 'notes://nothing' }).catch(() => undefined);

    const common = {
      principalId: 'user-7',
      tenant: 'acme',
      correlationId: 'corr-1',
      transport: 'http',
      tool: null,
    };
    expect(audit.events).toEqual([
      expect.objectContaining({
        ...common,
        resource: 'notes://count',
        operationId: 'notes.count',
        outcome: 'ok',
      }),
      expect.objectContaining({
        ...common,
        resource: 'notes://missing',
        operationId: 'notes.get',
        outcome: 'BUSINESS_NOTFOUND_001',
      }),
      expect.objectContaining({
        ...common,
        // Refused before the guards ran: no principal, as for an unknown tool.
        principalId: null,
        resource: 'notes://nothing',
        operationId: null,
        outcome: 'PROTOCOLS_NOTFOUND_003',
      }),
    ]);
  });
});

describe('audit events', () => {
  const common = {
    principalId: 'user-7',
    tenant: 'acme',
    correlationId: 'corr-1',
    transport: 'http',
  };

  it('one per call, for success, denial, validation failure and timeout; never the Authorization value', async () => {
    await mcp.callTool({ name: 'notes_add', arguments: { text: 'ok' } });
    await mcp.callTool({ name: 'notes_purge', arguments: {} });
    await mcp.callTool({
      name: 'notes_add',
      arguments: { text: 'far too long for a note' },
    });
    await mcp.callTool({ name: 'notes_wait', arguments: {} });

    expect(audit.events).toEqual([
      expect.objectContaining({
        ...common,
        tool: 'notes_add',
        operationId: 'notes.add',
        outcome: 'ok',
      }),
      expect.objectContaining({
        ...common,
        tool: 'notes_purge',
        operationId: 'notes.purge',
        outcome: 'SECURITY_DENIED_004',
      }),
      expect.objectContaining({
        ...common,
        tool: 'notes_add',
        operationId: 'notes.add',
        outcome: 'VALIDATION_INVALID_001',
      }),
      expect.objectContaining({
        ...common,
        tool: 'notes_wait',
        operationId: 'notes.wait',
        outcome: 'INTERNAL_TIMEOUT_001',
      }),
    ]);
    for (const event of audit.events) {
      expect(Object.keys(event)).toEqual([
        'time',
        'principalId',
        'tenant',
        'tool',
        'operationId',
        'outcome',
        'durationMs',
        'correlationId',
        'transport',
        'protocolVersion',
      ]);
      expect(event.protocolVersion).toBe(version);
      expect(Date.parse(event.time)).not.toBeNaN();
      expect(event.durationMs).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(event)).not.toContain('secret-token');
    }
    expect(audit.events[3].durationMs).toBeGreaterThanOrEqual(250);
  });

  it('a malformed X-Tenant-Id never reaches the event of a call refused before it runs', async () => {
    const malformed = await client({
      authorization: TELEMETRY_TOKEN,
      'x-tenant-id': 'acme corp',
    });
    await expect(
      malformed.callTool({ name: 'no_such_tool', arguments: {} }),
    ).rejects.toThrow();
    await malformed.callTool({ name: 'notes_purge', arguments: {} });
    await malformed.callTool({ name: 'notes_add', arguments: { text: 'x' } });
    await malformed.close();

    expect(
      audit.events.map(({ tool, tenant, outcome }) => [tool, tenant, outcome]),
    ).toEqual([
      ['no_such_tool', null, 'PROTOCOLS_NOTFOUND_002'],
      ['notes_purge', null, 'VALIDATION_INVALID_001'],
      ['notes_add', null, 'VALIDATION_INVALID_001'],
    ]);
    expect(JSON.stringify(audit.events)).not.toContain('acme corp');
  });

  it('a protocol error and an anonymous caller: the code, nulls where nothing is known', async () => {
    const anonymous = await client();
    await expect(
      anonymous.callTool({ name: 'no_such_tool', arguments: {} }),
    ).rejects.toThrow();
    await anonymous.close();
    expect(audit.events).toEqual([
      expect.objectContaining({
        principalId: null,
        tenant: null,
        tool: 'no_such_tool',
        operationId: null,
        outcome: 'PROTOCOLS_NOTFOUND_002',
        transport: 'http',
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    ]);
  });
});
