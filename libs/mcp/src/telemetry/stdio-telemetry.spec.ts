import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  type LoggerService,
  Module,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { Operation } from '@nestops/operations';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { IsString } from 'class-validator';
import { PassThrough } from 'node:stream';
import { McpProtocol } from '../protocol/mcp-protocol.js';
import { McpModule } from '../mcp.module.js';
import { McpStdioSession } from '../transports/stdio/mcp-stdio.session.js';

/**
 * Spans, the duration histogram and audit lines of calls over stdio, in
 * process, with the real SDK; the app opts in to the principal on spans,
 * to arguments in audit events, and to the Nest logger as the sink.
 */

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});

/** A principal for the one token the session's caller sends. */
@Injectable()
class StdioAuthGuard implements CanActivate {
  canActivate(execution: ExecutionContext): boolean {
    const request = execution
      .switchToHttp()
      .getRequest<{ headers: Record<string, string>; user?: unknown }>();
    if (request.headers.authorization === 'Bearer stdio-secret') {
      request.user = { sub: 'agent-3' };
    }
    return true;
  }
}

class TelemetrySayDto {
  @IsString()
  text: string;
}

@Injectable()
class StdioOperations {
  /** The trace id the handler ran under. */
  handlerTraceId?: string;

  @Operation({ id: 'echo.say', readOnly: true, input: TelemetrySayDto })
  say(input: TelemetrySayDto): { text: string } {
    this.handlerTraceId = trace.getActiveSpan()?.spanContext().traceId;
    const own = trace.getTracer('handler').startSpan('handler work');
    own.end();
    return { text: input.text };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      telemetry: { audit: true, recordPrincipal: true, auditArguments: true },
    }),
  ],
  providers: [
    StdioOperations,
    { provide: APP_GUARD, useClass: StdioAuthGuard },
  ],
})
class StdioTelemetryModule {}

/** The app's logger: keeps what is logged under `McpAudit`. */
class AuditLog implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown, context?: string): void {
    if (context === 'McpAudit') {
      this.lines.push(String(message));
    }
  }
  error(): void {}
  warn(): void {}
}

let moduleRef: TestingModule;
const log = new AuditLog();

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  moduleRef = await Test.createTestingModule({
    imports: [StdioTelemetryModule],
  }).compile();
  moduleRef.useLogger(log);
  await moduleRef.init();
});

afterAll(async () => {
  await moduleRef?.close();
  // The unit specs share a worker: the next file starts with no SDK.
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

/**
 * Runs a stdio session over `lines` (requests), each sent once the one
 * before is answered, as a client does after `initialize`; their answers.
 */
async function session(lines: readonly object[]): Promise<unknown[]> {
  const input = new PassThrough();
  const written: string[] = [];
  let wake = (): void => undefined;
  const running = new McpStdioSession(moduleRef.get(McpProtocol), {
    input,
    output: {
      write: (text: string) => {
        written.push(text);
        wake();
      },
    },
    caller: { headers: { authorization: 'Bearer stdio-secret' } },
    maxMessageSize: 1 << 20,
  }).run();
  const answers = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  for (const [index, line] of lines.entries()) {
    input.write(`${JSON.stringify(line)}\n`);
    while (answers().length <= index) {
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  input.end();
  await running;
  return answers();
}

it('a call on stdio: one span (pipe, the principal opted in), the handler under it, one value, one audit line', async () => {
  await session([
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'stdio-e2e', version: '1.0.0' },
      },
    },
    {
      jsonrpc: '2.0',
      id: 'call-2',
      method: 'tools/call',
      params: { name: 'echo_say', arguments: { text: 'hi' } },
    },
  ]);
  await reader.forceFlush();

  const mcp = spans
    .getFinishedSpans()
    .filter((span) => span.instrumentationScope.name === '@nestops/mcp');
  expect(mcp.map((span) => span.name)).toEqual([
    'initialize',
    'tools/call echo_say',
  ]);
  expect(mcp[0].attributes).toEqual({
    'mcp.method.name': 'initialize',
    'network.transport': 'pipe',
    'jsonrpc.request.id': '1',
    'mcp.protocol.version': '2025-06-18',
  });
  const call = mcp[1];
  expect(call.attributes).toEqual({
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'echo_say',
    'gen_ai.operation.name': 'execute_tool',
    'network.transport': 'pipe',
    'mcp.protocol.version': '2025-06-18',
    'jsonrpc.request.id': 'call-2',
    'nestops.operation.id': 'echo.say',
    'enduser.id': 'agent-3',
  });
  expect(call.parentSpanContext).toBeUndefined();

  const handler = spans
    .getFinishedSpans()
    .find((span) => span.name === 'handler work');
  expect(handler?.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
  expect(moduleRef.get(StdioOperations).handlerTraceId).toBe(
    call.spanContext().traceId,
  );

  const duration = metricExporter
    .getMetrics()
    .flatMap((resource) => resource.scopeMetrics)
    .flatMap((scope) => scope.metrics)
    .find(
      (metric) => metric.descriptor.name === 'mcp.server.operation.duration',
    );
  expect(
    duration?.dataPoints.map((point) => [
      point.attributes,
      (point.value as { count: number }).count,
    ]),
  ).toEqual([
    [
      {
        'mcp.method.name': 'initialize',
        'network.transport': 'pipe',
        'mcp.protocol.version': '2025-06-18',
      },
      1,
    ],
    [
      {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo_say',
        'gen_ai.operation.name': 'execute_tool',
        'network.transport': 'pipe',
        'mcp.protocol.version': '2025-06-18',
      },
      1,
    ],
  ]);

  expect(log.lines).toHaveLength(1);
  const event = JSON.parse(log.lines[0]) as Record<string, unknown>;
  expect(event).toEqual({
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    principalId: 'agent-3',
    tenant: null,
    tool: 'echo_say',
    operationId: 'echo.say',
    outcome: 'ok',
    durationMs: expect.any(Number),
    correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    transport: 'stdio',
    protocolVersion: '2025-06-18',
    arguments: { text: 'hi' },
  });
  expect(log.lines[0]).not.toContain('stdio-secret');
});

it('a traceparent in _meta is the parent on stdio too', async () => {
  spans.reset();
  await session([
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'echo_say',
        arguments: { text: 'traced' },
        _meta: {
          traceparent:
            '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
      },
    },
  ]);
  const [call] = spans
    .getFinishedSpans()
    .filter((span) => span.instrumentationScope.name === '@nestops/mcp');
  expect(call.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  expect(call.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  expect(call.links).toEqual([]);
});
