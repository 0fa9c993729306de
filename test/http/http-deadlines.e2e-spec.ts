import { Injectable, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { UnitOfWorkModule } from '@nestops/typeorm';
import { IsString, MaxLength } from 'class-validator';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { NEEDS_DATABASE_URL } from '../support/databases';
import { mcpHttp } from '../support/mcp-http';
import { dropSchema, newSchema, withClient } from '../support/pg-schema';
import { createSlowTriggers } from '../support/slow-triggers';
import { startApp, type RunningApp, useApp } from '../support/start-app';
import { testDataSource } from '../support/test-data-source';

/**
 * Deadlines over HTTP tell the truth, on PostgreSQL, as on the command line
 * (test/cli/cli-deadlines.e2e-spec.ts): with a 1 s limit on every call, a write
 * whose COMMIT outlasts it (a deferred constraint trigger sleeps 2.5 s at
 * COMMIT) is answered as committed; one whose INSERT outlasts it (a row
 * trigger sleeps before the write) is rolled back and answered
 * `INTERNAL_TIMEOUT_001`.
 */

@Entity('deadline_rows')
class DeadlineRow {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;
}

class AddRowDto {
  @IsString()
  @MaxLength(100)
  name: string;
}

@Injectable()
class RowOperations {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  @Operation({ id: 'rows.add', description: 'Adds a row.' })
  async add(input: AddRowDto): Promise<{ id: number; name: string }> {
    const row = await this.txHost.tx
      .getRepository(DeadlineRow)
      .save({ name: input.name });
    return { id: row.id, name: row.name };
  }
}

const url = process.env.DATABASE_URL;

interface DeadlineApp extends RunningApp {
  readonly schema: string;
}

async function startDeadlineApp(): Promise<DeadlineApp> {
  const schema = await newSchema(url as string);
  @Module({
    imports: [
      TypeOrmModule.forRoot(testDataSource('postgres', [DeadlineRow], schema)),
      UnitOfWorkModule.forRoot(),
      McpModule.forRoot({ serverName: 'deadlines', timeout: 1000 }),
    ],
    providers: [RowOperations],
  })
  class DeadlineModule {}
  const running = await startApp(DeadlineModule, { logger: ['error'] });
  await withClient(
    url as string,
    (client) => createSlowTriggers(client, 'deadline_rows'),
    schema,
  );
  return {
    ...running,
    schema,
    close: async () => {
      await running.close();
      await dropSchema(url as string, schema);
    },
  };
}

describe.runIf(url)('deadlines over HTTP (PostgreSQL)', () => {
  const running = useApp(startDeadlineApp);

  const names = () =>
    withClient(
      url as string,
      async (client) =>
        (
          await client.query<{ name: string }>(
            'SELECT name FROM deadline_rows ORDER BY id',
          )
        ).rows.map((row) => row.name),
      running().schema,
    );

  it('a commit that outlasts the deadline is answered as committed', async () => {
    const result = await mcpHttp(running().baseUrl).callTool('rows_add', {
      name: 'slow commit',
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ name: 'slow commit' });
    expect(await names()).toContain('slow commit');
  }, 30_000);

  it('a write that outlasts the deadline before its commit is rolled back and says so', async () => {
    const result = await mcpHttp(running().baseUrl).callTool('rows_add', {
      name: 'slow insert',
    });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'INTERNAL_TIMEOUT_001: The operation did not finish within 1 s.',
        },
      ],
    });
    // The INSERT runs on until its trigger is done, then is rolled back.
    await new Promise((settle) => setTimeout(settle, 2_000));
    expect(await names()).not.toContain('slow insert');
  }, 30_000);
});

if (!url) {
  describe('deadlines over HTTP (PostgreSQL)', () => {
    it.skip(NEEDS_DATABASE_URL, () => undefined);
  });
}
