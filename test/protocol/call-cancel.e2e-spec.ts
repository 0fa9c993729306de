import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
} from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { McpModule } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { UnitOfWorkModule } from '@nestops/typeorm';
import { IsInt, Max, Min } from 'class-validator';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { testDataSource } from '../support/test-data-source';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { resultJson, mcpHttp } from '../support/mcp-http';
import { dropSchema, newSchema } from '../support/pg-schema';
import { startApp, type RunningApp, useApp } from '../support/start-app';

@Entity('imported_rows')
class ImportedRow {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  position: number;
}

class ImportDto {
  @IsInt()
  @Min(1)
  @Max(1000)
  count: number;
}

/** Writes `count` rows in one transaction, one every 20 ms, honouring its signal between rows. */
@Injectable()
class ImportOperations {
  /** When the last import's signal aborted (ms since the epoch). */
  abortedAt?: number;
  /** How many rows the last import has written so far. */
  written = 0;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  @Operation({ id: 'rows.import', description: 'Imports rows slowly.' })
  async import(
    input: ImportDto,
    context: InvocationContext,
  ): Promise<{ created: number }> {
    this.abortedAt = undefined;
    this.written = 0;
    context.signal.addEventListener('abort', () => {
      this.abortedAt = Date.now();
    });
    for (let position = 1; position <= input.count; position += 1) {
      context.signal.throwIfAborted();
      await this.txHost.tx.getRepository(ImportedRow).save({ position });
      this.written = position;
      context.reportProgress(position, input.count);
      await new Promise((settle) => setTimeout(settle, 20));
    }
    return { created: input.count };
  }
}

/**
 * The endpoint's authentication: `Bearer <name>` or `Bearer <name>-<device>`
 * (any case of the scheme) is the user `<name>`; no header, anonymous.
 */
@Injectable()
class DeviceTokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: { authorization?: string }; user?: object }>();
    const name = /^bearer\s+([a-z]+)(-[a-z]+)?\s*$/i.exec(
      request.headers.authorization ?? '',
    )?.[1];
    if (name !== undefined) {
      request.user = { id: name };
    }
    return true;
  }
}

interface ImportApp extends RunningApp {
  readonly dataSource: DataSource;
  readonly operations: ImportOperations;
}

async function startImportApp(
  database: 'sqlite' | 'postgres',
): Promise<ImportApp> {
  const url = process.env.DATABASE_URL as string;
  const schema = database === 'postgres' ? await newSchema(url) : undefined;
  @Module({
    imports: [
      TypeOrmModule.forRoot(testDataSource(database, [ImportedRow], schema)),
      UnitOfWorkModule.forRoot(),
      McpModule.forRoot({ serverName: 'imports', authGuard: DeviceTokenGuard }),
    ],
    providers: [ImportOperations, DeviceTokenGuard],
  })
  class ImportModule {}
  const running = await startApp(ImportModule, { logger: ['error'] });
  return {
    ...running,
    dataSource: running.app.get(DataSource),
    operations: running.app.get(ImportOperations),
    close: async () => {
      await running.close();
      if (schema) {
        await dropSchema(url, schema);
      }
    },
  };
}

const MODERN = '2026-07-28';

/** A 2026 `rows.import` POST that asks for progress, read as a stream. */
function importPost(baseUrl: string, count: number, signal: AbortSignal) {
  return fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'rows_import',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'rows_import',
        arguments: { count },
        _meta: {
          progressToken: 'import-1',
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe.each(DATABASES)('cancelling a call ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  const running = useApp(() => startImportApp(db.database));

  it('a 2026 client closing its response stream aborts the handler and rolls the import back', async () => {
    const { baseUrl, operations, dataSource } = running();
    const client = new AbortController();
    const response = await importPost(baseUrl, 200, client.signal);
    expect(response.headers.get('content-type')).toBe('text/event-stream');

    // The first progress event: rows are being written.
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain(
      '"method":"notifications/progress"',
    );
    client.abort();
    await reader.cancel().catch(() => undefined);

    await vi.waitFor(() => expect(operations.abortedAt).toBeDefined());
    // Aborted while it ran, not at its end (no time bound: npm test runs on
    // a loaded machine; speed is for bench/).
    expect(operations.written).toBeLessThan(200);
    await vi.waitFor(async () =>
      expect(await dataSource.getRepository(ImportedRow).count()).toBe(0),
    );

    // The server goes on serving.
    expect(
      resultJson(await mcpHttp(baseUrl).callTool('rows_import', { count: 2 })),
    ).toEqual({ created: 2 });
    expect(await dataSource.getRepository(ImportedRow).count()).toBe(2);
    await dataSource.getRepository(ImportedRow).clear();
  });

  it('a 2025 client closing its connection does not cancel the call (2025 cancels with notifications/cancelled)', async () => {
    const { baseUrl, operations, dataSource } = running();
    operations.written = 0;
    const client = new AbortController();
    const reply = fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      signal: client.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'rows_import', arguments: { count: 5 } },
      }),
    });
    await vi.waitFor(() => expect(operations.written).toBeGreaterThan(1));
    client.abort();
    await reply.catch(() => undefined);

    await vi.waitFor(async () =>
      expect(await dataSource.getRepository(ImportedRow).count()).toBe(5),
    );
    expect(operations.abortedAt).toBeUndefined();
    await dataSource.getRepository(ImportedRow).clear();
  });

  /** A 2025 POST of `body` as the caller `authorization` names. */
  function post2025(baseUrl: string, body: object, authorization: string) {
    return fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2025-11-25',
        authorization,
      },
      body: JSON.stringify(body),
    });
  }

  const importCall = (id: number, count: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'rows_import', arguments: { count } },
  });
  const cancelOf = (requestId: number) => ({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason: 'the user gave up' },
  });

  it('a 2025 notifications/cancelled from the same caller cancels its call; from another caller it is ignored', async () => {
    const { baseUrl, operations, dataSource } = running();
    operations.written = 0;
    const reply = post2025(baseUrl, importCall(30, 200), 'Bearer alice');
    await vi.waitFor(() => expect(operations.written).toBeGreaterThan(1));

    // Another caller naming the same id, and the caller naming another id.
    for (const [authorization, id] of [
      ['Bearer mallory', 30],
      ['Bearer alice', 31],
    ] as const) {
      const ignored = await post2025(baseUrl, cancelOf(id), authorization);
      expect(ignored.status).toBe(202);
    }
    await new Promise((settle) => setTimeout(settle, 60));
    expect(operations.abortedAt).toBeUndefined();

    const cancel = await post2025(baseUrl, cancelOf(30), 'Bearer alice');
    expect(cancel.status).toBe(202);
    const answer = (await (await reply).json()) as {
      id: number;
      result: { isError?: boolean; content: Array<{ text: string }> };
    };
    expect(answer.id).toBe(30);
    expect(answer.result).toMatchObject({
      isError: true,
      content: [{ text: 'INTERNAL_CANCELLED_001: The call was cancelled.' }],
    });
    expect(operations.written).toBeLessThan(200);
    await vi.waitFor(async () =>
      expect(await dataSource.getRepository(ImportedRow).count()).toBe(0),
    );
  });

  it('a 2025 caller is its principal: its notifications/cancelled cancels its call however its credentials are spelled, and with another token of its own', async () => {
    for (const canceller of ['bearer   alice', 'Bearer alice-laptop']) {
      const { baseUrl, operations } = running();
      operations.written = 0;
      const reply = post2025(baseUrl, importCall(35, 200), 'Bearer alice');
      await vi.waitFor(() => expect(operations.written).toBeGreaterThan(1));

      const ignored = await post2025(baseUrl, cancelOf(35), 'Bearer mallory');
      expect(ignored.status).toBe(202);
      await new Promise((settle) => setTimeout(settle, 60));
      expect(operations.abortedAt).toBeUndefined();

      const cancel = await post2025(baseUrl, cancelOf(35), canceller);
      expect(cancel.status).toBe(202);
      const answer = (await (await reply).json()) as {
        result: { content: Array<{ text: string }> };
      };
      expect(answer.result.content[0].text).toBe(
        'INTERNAL_CANCELLED_001: The call was cancelled.',
      );
    }
  });

  it('2025 ids in flight: one reused while its call is under way is served for its own caller, one reused after the answer can be cancelled again', async () => {
    const { baseUrl, operations, dataSource } = running();
    type Answer = { id: number; result: { content: Array<{ text: string }> } };
    const first = await post2025(baseUrl, importCall(40, 1), 'Bearer alice');
    expect(((await first.json()) as Answer).result.content[0].text).toBe(
      '{"created":1}',
    );

    // The id again, now that its call was answered: cancellable as ever.
    operations.written = 0;
    const slow = post2025(baseUrl, importCall(40, 200), 'Bearer alice');
    await vi.waitFor(() => expect(operations.written).toBeGreaterThan(1));
    // The same id once more while that call is under way: served on its
    // own (after the first, SQLite taking one writer at a time).
    const again = post2025(baseUrl, importCall(40, 1), 'Bearer alice');
    await post2025(baseUrl, cancelOf(40), 'Bearer alice');

    expect(((await (await slow).json()) as Answer).result.content).toEqual([
      { type: 'text', text: 'INTERNAL_CANCELLED_001: The call was cancelled.' },
    ]);
    const reused = (await (await again).json()) as Answer;
    expect(reused.id).toBe(40);
    expect(reused.result.content[0].text).toBe('{"created":1}');
    await dataSource.getRepository(ImportedRow).clear();
  });
});
