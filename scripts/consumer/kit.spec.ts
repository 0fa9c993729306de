// Copied into the consumer app's src/ and run by the starter's own test
// runner (Jest in Nest 11's starter, Vitest in Nest 12's): the `testing`
// entry points of both packages, used as the READMEs show, against the
// quick-start app.
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpProtocolError, McpTestClient } from '@nestops/mcp/testing';
import {
  createTestApplication,
  OperationTestClient,
} from '@nestops/operations/testing';
import { AppModule } from './app.module.js';
import { setupApp } from './app.setup.js';

describe('the testing kits against the quick start', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
    }).compile();
    moduleRef.useLogger(false);
    // The guard is set by setupApp, as main.ts and cli.ts apply it.
    app = await createTestApplication(moduleRef, setupApp);
  });

  afterAll(() => app.close());

  it('McpTestClient lists, calls and is denied', async () => {
    const mcp = McpTestClient.create(app);
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual([
      'notes_create',
      'notes_list',
    ]);
    const alice = mcp.withHeaders({ Authorization: 'Bearer alice-token' });
    expect(await alice.callTool('notes_create', { text: 'hello' })).toEqual({
      content: [
        { type: 'text', text: '{"id":1,"text":"hello","author":"alice"}' },
      ],
      structuredContent: { id: 1, text: 'hello', author: 'alice' },
    });
    expect(await mcp.callTool('notes_create', { text: 'hello' })).toEqual({
      content: [
        {
          type: 'text',
          text: 'SECURITY_DENIED_003: Authentication is required.',
        },
      ],
      isError: true,
    });
    await expect(mcp.callTool('notes_delete')).rejects.toBeInstanceOf(
      McpProtocolError,
    );
  });

  it('OperationTestClient invokes and is denied', async () => {
    const operations = OperationTestClient.create(app, {
      headers: { Authorization: 'Bearer bob-token' },
    });
    expect(await operations.invoke('notes.list')).toEqual({
      ok: true,
      value: { items: [{ id: 1, text: 'hello', author: 'alice' }] },
      json: '{"items":[{"id":1,"text":"hello","author":"alice"}]}',
    });
    const denied = await operations.invoke('notes.create', { text: 'hi' });
    expect(denied.ok ? undefined : denied.failure.code).toBe(
      'SECURITY_DENIED_004',
    );
  });
});
