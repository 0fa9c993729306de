import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ContractError } from '@nestops/operations/internal';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import {
  AOperations,
  appWith,
  asyncAppWith,
  BOperations,
  FirstDuplicate,
  LONG_ID,
  LONGEST_ID,
  LongestIdOperations,
  LongIdOperations,
  NoDotOperations,
  OrderOperations,
  ReportOperations,
  SameClassDuplicates,
  SecondDuplicate,
  SharedResourceUri,
  startupError,
  toolNames,
  XOperations,
} from '../fixtures/startup-fixtures';
import { RecordingLogger } from '../fixtures/outer-auth-fixtures';
import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { startApp, type RunningApp, useApp } from '../support/start-app';

async function withApp(
  running: RunningApp,
  body: (baseUrl: string) => Promise<void>,
): Promise<void> {
  try {
    await body(running.baseUrl);
  } finally {
    await running.close();
  }
}

describe('startup checks of tool names', () => {
  it.each(['bad name!', 'tool\n', '', 'outil_\u00e9', 'a.b', 'x'.repeat(65)])(
    'rejects the override %j, naming the operation',
    async (name) => {
      const error = await startupError(
        appWith([XOperations], { tools: { 'x.create': name } }),
      );

      expect(error).toBeInstanceOf(ContractError);
      expect(error.message).toMatch(/^PROTOCOLS_VALIDATION_004: /);
      expect(error.message).toContain(JSON.stringify(name));
      expect(error.message).toContain("'x.create'");
      expect(error.message).toContain('XOperations.create');
    },
  );

  it('rejects an id whose tool name is longer than 64 characters, naming the operation', async () => {
    expect(LONG_ID.replaceAll('.', '_')).toHaveLength(65);

    const error = await startupError(appWith([LongIdOperations]));

    expect(error.message).toMatch(/^PROTOCOLS_VALIDATION_004: /);
    expect(error.message).toContain(`'${LONG_ID}'`);
    expect(error.message).toContain('LongIdOperations.run');
  });

  it('accepts a tool name of exactly 64 characters', async () => {
    const name = LONGEST_ID.replaceAll('.', '_');
    expect(name).toHaveLength(64);

    await withApp(
      await startApp(appWith([LongestIdOperations])),
      async (url) => {
        expect(await toolNames(url)).toEqual([name]);
      },
    );
  });

  it('rejects an override that takes the name of another operation, naming both', async () => {
    const error = await startupError(
      appWith([AOperations, BOperations], {
        tools: { 'a.create': 'b_create' },
      }),
    );

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toMatch(/^PROTOCOLS_CONFLICT_001: /);
    expect(error.message).toContain("'b_create'");
    expect(error.message).toContain("'a.create' (AOperations.create)");
    expect(error.message).toContain("'b.create' (BOperations.create)");
  });

  it('rejects two overrides with one name, naming both operations', async () => {
    const error = await startupError(
      appWith([AOperations, BOperations], {
        tools: { 'a.create': 'create_thing', 'b.create': 'create_thing' },
      }),
    );

    expect(error.message).toMatch(/^PROTOCOLS_CONFLICT_001: /);
    expect(error.message).toContain("'a.create'");
    expect(error.message).toContain("'b.create'");
  });

  it('publishes an overridden name instead of the default one', async () => {
    const app = await startApp(
      appWith([OrderOperations], { tools: { 'orders.create': 'place_order' } }),
    );
    await withApp(app, async (url) => {
      const names = await toolNames(url);
      expect(names).toContain('place_order');
      expect(names).toContain('orders_list');
      expect(names).not.toContain('orders_create');

      const placed = await mcpHttp(url).request('tools/call', {
        name: 'place_order',
        arguments: { name: 'Tea', amount: 2 },
      });
      expect(placed.status).toBe(200);
      expect(placed.json().result).toEqual({
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              name: 'Tea',
              amount: 2,
              tool: 'orders.create',
            }),
          },
        ],
        structuredContent: { name: 'Tea', amount: 2, tool: 'orders.create' },
      });

      const byDefaultName = await mcpHttp(url).request('tools/call', {
        name: 'orders_create',
        arguments: { name: 'Tea', amount: 2 },
      });
      expect(byDefaultName.json().error).toMatchObject({
        code: -32602,
        data: { code: 'PROTOCOLS_NOTFOUND_002' },
      });
    });
  });
});

describe('startup checks of McpModule options', () => {
  it('rejects a path without a leading slash', async () => {
    const error = await startupError(appWith([XOperations], { path: 'mcp' }));

    expect(error.message).toContain('Invalid McpModule options');
    expect(error.message).toContain('path');
    expect(error.message).toContain('"mcp"');
  });

  it('rejects a negative maxBodySize', async () => {
    const error = await startupError(
      appWith([XOperations], { maxBodySize: -1 }),
    );

    expect(error.message).toContain('Invalid McpModule options');
    expect(error.message).toContain('maxBodySize must be a positive integer');
  });

  it('rejects a tool override for an operation that does not exist', async () => {
    const error = await startupError(
      appWith([XOperations], { tools: { 'missing.op': 'x' } }),
    );

    expect(error.message).toContain('Invalid McpModule options');
    expect(error.message).toContain("'missing.op'");
  });

  it('applies options from forRootAsync', async () => {
    const app = await startApp(
      asyncAppWith([OrderOperations], async (config) => ({
        serverName: config.serverName,
        serverVersion: config.serverVersion,
        instructions: 'Orders, configured asynchronously.',
        path: config.path,
        tools: { 'orders.create': 'place_order' },
      })),
    );
    await withApp(app, async (url) => {
      const client = new Client({ name: 'startup-spec', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/agents/mcp`)),
      );
      try {
        expect(client.getServerVersion()).toMatchObject({
          name: 'async-order-desk',
          version: '9.8.7',
        });
        expect(client.getInstructions()).toBe(
          'Orders, configured asynchronously.',
        );
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual([
          'orders_list',
          'place_order',
        ]);
      } finally {
        await client.close();
      }
      const atDefaultPath = await mcpHttp(url).post(rpcRequest(1, 'ping'));
      expect(atDefaultPath.status).toBe(404);
    });
  });

  it('validates options from forRootAsync too', async () => {
    const error = await startupError(
      asyncAppWith([XOperations], async () => ({ maxBodySize: 0 })),
    );

    expect(error.message).toContain('maxBodySize must be a positive integer');
  });
});

describe('startup check of the HTTP adapter', () => {
  /** An adapter that says it is neither Express nor Fastify. */
  class KoaNamedAdapter extends ExpressAdapter {
    override getType(): string {
      return 'koa';
    }
  }

  it('refuses an adapter other than Express and Fastify, naming it and both it serves on', async () => {
    const error = await startupError(appWith([XOperations]), {
      adapter: new KoaNamedAdapter(),
    });

    expect(error.message).toBe(
      "McpModule's HTTP transport needs @nestjs/platform-express or @nestjs/platform-fastify; this app uses 'koa'.",
    );
  });
});

describe('an application context, without an HTTP adapter (as the command line makes it)', () => {
  it('starts and closes, logging no error', async () => {
    const logger = new RecordingLogger();
    const context = await NestFactory.createApplicationContext(
      appWith([XOperations]),
      { logger, abortOnError: false },
    );

    // Nest logs a shutdown hook's failure, and closes on.
    await context.close();
    expect(logger.errors()).toEqual([]);
  });
});

describe('startup checks of operation contracts', () => {
  it('rejects an operation id without a dot, naming the method', async () => {
    const error = await startupError(appWith([NoDotOperations]));

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain('"nodot"');
    expect(error.message).toContain('NoDotOperations.run');
  });

  it('rejects one id on two providers, naming both methods', async () => {
    const error = await startupError(
      appWith([FirstDuplicate, SecondDuplicate]),
    );

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain("'dup.run'");
    expect(error.message).toContain('FirstDuplicate.handle');
    expect(error.message).toContain('SecondDuplicate.handle');
  });

  it('rejects one resource URI on two operations, naming both', async () => {
    const error = await startupError(appWith([SharedResourceUri]));

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe(
      "CONTRACT_CONFLICT_003: Resource 'reports://latest' is declared twice: by operation 'reports.get' and by operation 'reports.newest'; give each its own URI.",
    );
  });

  it('rejects one id on two methods of one provider, naming both methods', async () => {
    const error = await startupError(appWith([SameClassDuplicates]));

    expect(error.message).toContain("'twice.run'");
    expect(error.message).toContain('SameClassDuplicates.first');
    expect(error.message).toContain('SameClassDuplicates.second');
  });
});

describe('what tools/list publishes', () => {
  const running = useApp(() => startApp(appWith([ReportOperations])));

  it('leaves out operations not exposed on MCP and internal ones', async () => {
    const names = await toolNames(running().baseUrl);

    expect([...names].sort()).toEqual([
      'reports_draft',
      'reports_list',
      'reports_preview',
    ]);
  });

  it.each(['reports_export', 'reports_archive', 'reports_rebuild'])(
    'does not call the unpublished %s',
    async (name) => {
      const answer = await mcpHttp(running().baseUrl).request('tools/call', {
        name,
        arguments: {},
      });

      expect(answer.json().error).toMatchObject({
        code: -32602,
        data: { code: 'PROTOCOLS_NOTFOUND_002' },
      });
    },
  );

  it('calls a published one', async () => {
    const answer = await mcpHttp(running().baseUrl).request('tools/call', {
      name: 'reports_preview',
      arguments: {},
    });

    expect(answer.json().result).toMatchObject({
      structuredContent: { preview: true },
    });
  });
});
