import { Injectable, Logger, Module } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import {
  getInvocationContext,
  type InvocationContext,
  Operation,
} from '@nestops/operations';
import { OperationTestClient } from '@nestops/operations/testing';
import { IsInt, Max, Min } from 'class-validator';
import { ClsModule } from 'nestjs-cls';
import { ClientV1, ClientV2, CLIENT_INFO } from '../support/mcp-clients';
import { sendExact, sseEvents } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

class StepsDto {
  @IsInt()
  @Min(1)
  @Max(20)
  steps: number;
}

/**
 * Reports progress from a service the handler calls, never handed the
 * invocation context: it finds its call's with `getInvocationContext()`,
 * after each await too.
 */
@Injectable()
class Stepper {
  async run(steps: number): Promise<void> {
    for (let step = 1; step <= steps; step += 1) {
      await new Promise((settle) => setTimeout(settle, 2));
      const context = getInvocationContext();
      context?.reportProgress(step, steps, `step ${step} of ${steps}`);
      // Repeated and decreasing values are dropped.
      context?.reportProgress(step - 0.5, steps);
      context?.reportProgress(step, steps);
    }
  }
}

@Injectable()
class JobOperations {
  constructor(private readonly stepper: Stepper) {}

  @Operation({ id: 'jobs.run', description: 'Runs a job in steps.' })
  async run(
    input: StepsDto,
    context: InvocationContext,
  ): Promise<{ steps: number }> {
    context.log('debug', 'starting', { steps: input.steps });
    context.log('warning', 'this job is a test');
    await this.stepper.run(input.steps);
    return { steps: input.steps };
  }
}

@Module({
  imports: [
    ClsModule.forRoot({ global: true }),
    McpModule.forRoot({ serverName: 'jobs' }),
  ],
  providers: [JobOperations, Stepper],
})
class JobsModule {}

/** The same operations in an app without nestjs-cls. */
@Module({
  imports: [McpModule.forRoot({ serverName: 'jobs' })],
  providers: [JobOperations, Stepper],
})
class JobsWithoutClsModule {}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A raw POST of `body`, and its SSE events (parsed) when it is a stream. */
async function post(baseUrl: string, body: object, modern = false) {
  const reply = await sendExact(baseUrl, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern
        ? {
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'jobs_run',
          }
        : { 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(body),
  });
  const type = reply.header('content-type');
  return {
    status: reply.status,
    type,
    headers: {
      cacheControl: reply.header('cache-control'),
      accelBuffering: reply.header('x-accel-buffering'),
    },
    text: reply.text,
    events:
      type === 'text/event-stream'
        ? sseEvents<{ method?: string; params?: Record<string, unknown> }>(
            reply.text,
          )
        : [],
  };
}

const jobsRun = (
  id: number,
  meta: Record<string, unknown> | undefined,
  steps = 3,
) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'jobs_run',
    arguments: { steps },
    ...(meta ? { _meta: meta } : {}),
  },
});

describe('progress and log messages of a call', () => {
  const running = useApp(() => startApp(JobsModule, { logger: ['error'] }));

  it('the SDK v1 client receives increasing progress with its token, then the result (2025-11-25)', async () => {
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(new TransportV1(new URL('/mcp', running().baseUrl)));
    try {
      const progress: Array<{ progress: number; total?: number }> = [];
      const result = await client.callTool(
        { name: 'jobs_run', arguments: { steps: 4 } },
        undefined,
        {
          onprogress: ({ progress: value, total }) =>
            progress.push({ progress: value, total }),
        },
      );
      expect(result.structuredContent).toEqual({ steps: 4 });
      expect(progress).toEqual([
        { progress: 1, total: 4 },
        { progress: 2, total: 4 },
        { progress: 3, total: 4 },
        { progress: 4, total: 4 },
      ]);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['2025-11-25 (initialize)', undefined],
    ['2026-07-28 (versionNegotiation auto)', { mode: 'auto' as const }],
  ])(
    'the SDK v2 client receives the progress too, %s',
    async (_era, versionNegotiation) => {
      const client = new ClientV2(
        CLIENT_INFO,
        versionNegotiation ? { versionNegotiation } : undefined,
      );
      await client.connect(new TransportV2(new URL('/mcp', running().baseUrl)));
      try {
        expect(client.getProtocolEra()).toBe(
          versionNegotiation ? 'modern' : 'legacy',
        );
        const progress: number[] = [];
        const result = await client.callTool(
          { name: 'jobs_run', arguments: { steps: 3 } },
          {
            onprogress: ({ progress: value }: { progress: number }) =>
              progress.push(value),
          },
        );
        expect(result.structuredContent).toEqual({ steps: 3 });
        expect(progress).toEqual([1, 2, 3]);
      } finally {
        await client.close();
      }
    },
  );

  it('streams the notifications with the token echoed exactly, then the answer, as SSE', async () => {
    const reply = await post(
      running().baseUrl,
      jobsRun(7, { progressToken: 'job-7' }),
    );
    expect(reply.status).toBe(200);
    expect(reply.type).toBe('text/event-stream');
    expect(reply.headers).toEqual({
      cacheControl: 'no-cache, no-transform',
      accelBuffering: 'no',
    });
    expect(reply.events).toEqual([
      ...[1, 2, 3].map((step) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken: 'job-7',
          progress: step,
          total: 3,
          message: `step ${step} of 3`,
        },
      })),
      {
        jsonrpc: '2.0',
        id: 7,
        result: {
          content: [{ type: 'text', text: '{"steps":3}' }],
          structuredContent: { steps: 3 },
        },
      },
    ]);
  });

  it('a call that sends no token is answered with plain JSON, byte for byte', async () => {
    const reply = await post(running().baseUrl, jobsRun(8, undefined));
    expect(reply.type).toBe('application/json');
    expect(reply.text).toBe(
      '{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"{\\"steps\\":3}"}],"structuredContent":{"steps":3}}}',
    );
  });

  it('2026-07-28: log messages at or above the level in _meta reach the client, lower ones do not', async () => {
    const warning = await post(
      running().baseUrl,
      jobsRun(9, {
        ...MODERN_META,
        'io.modelcontextprotocol/logLevel': 'warning',
      }),
      true,
    );
    expect(
      warning.events.filter(
        (event) => event.method === 'notifications/message',
      ),
    ).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: 'this job is a test' },
      },
    ]);

    const debug = await post(
      running().baseUrl,
      jobsRun(10, {
        ...MODERN_META,
        'io.modelcontextprotocol/logLevel': 'debug',
      }),
      true,
    );
    expect(
      debug.events
        .filter((event) => event.method === 'notifications/message')
        .map((event) => event.params),
    ).toEqual([
      { level: 'debug', data: { message: 'starting', data: { steps: 3 } } },
      { level: 'warning', data: 'this job is a test' },
    ]);

    const error = await post(
      running().baseUrl,
      jobsRun(11, {
        ...MODERN_META,
        'io.modelcontextprotocol/logLevel': 'error',
      }),
      true,
    );
    // Nothing to send at `error`: the plain JSON answer.
    expect(error.type).toBe('application/json');
  });

  it('a log message nobody asked for goes to the app logger; progress where nothing delivers it is dropped', async () => {
    const warned = vi.spyOn(Logger.prototype, 'warn');
    try {
      const client = OperationTestClient.create(running().app);
      expect(await client.invoke('jobs.run', { steps: 2 })).toMatchObject({
        ok: true,
        value: { steps: 2 },
      });
      expect(warned).toHaveBeenCalledWith('this job is a test');
    } finally {
      warned.mockRestore();
    }
  });

  /** A 2025 client of `kind` sending `Authorization: key`, with the log messages it receives. */
  async function loggingClient(kind: 'v1' | 'v2', key: string) {
    const url = new URL('/mcp', running().baseUrl);
    const requestInit = { headers: { authorization: key } };
    const messages: Array<{ level: string; data: unknown }> = [];
    if (kind === 'v1') {
      const client = new ClientV1(CLIENT_INFO);
      client.setNotificationHandler(
        LoggingMessageNotificationSchema,
        (note) => {
          messages.push({ level: note.params.level, data: note.params.data });
        },
      );
      await client.connect(new TransportV1(url, { requestInit }));
      return { client, messages };
    }
    const client = new ClientV2(CLIENT_INFO);
    client.setNotificationHandler('notifications/message', (note) => {
      messages.push({ level: note.params.level, data: note.params.data });
    });
    await client.connect(new TransportV2(url, { requestInit }));
    return { client, messages };
  }

  it.each(['v1', 'v2'] as const)(
    '2025-11-25: the SDK %s client gets the log messages at or above the level it set, another caller at its own level',
    async (kind) => {
      const warning = await loggingClient(kind, `Bearer ${kind}-warning`);
      const debug = await loggingClient(kind, `Bearer ${kind}-debug`);
      const silent = await loggingClient(kind, `Bearer ${kind}-silent`);
      try {
        expect(warning.client.getServerCapabilities()?.logging).toEqual({});
        await warning.client.setLoggingLevel('warning');
        await debug.client.setLoggingLevel('debug');
        await silent.client.setLoggingLevel('error');
        for (const each of [warning, debug, silent]) {
          const result = await each.client.callTool({
            name: 'jobs_run',
            arguments: { steps: 1 },
          });
          expect(result.structuredContent).toEqual({ steps: 1 });
        }
        expect(warning.messages).toEqual([
          { level: 'warning', data: 'this job is a test' },
        ]);
        expect(debug.messages).toEqual([
          { level: 'debug', data: { message: 'starting', data: { steps: 1 } } },
          { level: 'warning', data: 'this job is a test' },
        ]);
        expect(silent.messages).toEqual([]);
      } finally {
        await Promise.all(
          [warning, debug, silent].map((each) => each.client.close()),
        );
      }
    },
  );

  it('2025-11-25: logging/setLevel with a level MCP does not have is -32602', async () => {
    const reply = await sendExact(running().baseUrl, {
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: 'Bearer bad-level',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'logging/setLevel',
        params: { level: 'verbose' },
      }),
    });
    expect(JSON.parse(reply.text)).toMatchObject({
      id: 1,
      error: { code: -32602, data: { code: 'PROTOCOLS_VALIDATION_001' } },
    });
  });

  it('concurrent calls each reach their own invocation context from the service, after every await', async () => {
    const [slow, fast] = await Promise.all([
      post(running().baseUrl, jobsRun(21, { progressToken: 'slow' }, 6)),
      post(running().baseUrl, jobsRun(22, { progressToken: 'fast' }, 2)),
    ]);
    const progressOf = (reply: typeof slow) =>
      reply.events
        .filter((event) => event.method === 'notifications/progress')
        .map((event) => [event.params?.progressToken, event.params?.progress]);
    expect(progressOf(slow)).toEqual(
      [1, 2, 3, 4, 5, 6].map((step) => ['slow', step]),
    );
    expect(progressOf(fast)).toEqual([1, 2].map((step) => ['fast', step]));
  });

  it('outside a call, getInvocationContext() is undefined', () => {
    expect(getInvocationContext()).toBeUndefined();
  });
});

describe('getInvocationContext() without an argument, in an app without nestjs-cls', () => {
  const running = useApp(() =>
    startApp(JobsWithoutClsModule, { logger: ['error'] }),
  );

  it('finds no call (the call pays for no async context), and the service reports nothing', async () => {
    const reply = await post(
      running().baseUrl,
      jobsRun(31, { progressToken: 'no-cls' }),
    );
    expect(reply.type).toBe('application/json');
    expect(JSON.parse(reply.text)).toMatchObject({
      id: 31,
      result: { structuredContent: { steps: 3 } },
    });
  });
});
