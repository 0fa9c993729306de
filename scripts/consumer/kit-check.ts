// Compiled and run inside the consumer app: the `testing` entry points of both
// packages, used as the READMEs show, against the quick-start app.
import { Test } from '@nestjs/testing';
import { McpProtocolError, McpTestClient } from '@nestops/mcp/testing';
import { OperationTestClient } from '@nestops/operations/testing';
import { deepStrictEqual, rejects } from 'node:assert/strict';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule],
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();

  const mcp = McpTestClient.create(moduleRef);
  deepStrictEqual(
    (await mcp.listTools()).map((tool) => tool.name),
    ['notes_create', 'notes_list'],
  );
  const alice = mcp.withHeaders({ Authorization: 'Bearer alice-token' });
  deepStrictEqual(await alice.callTool('notes_create', { text: 'hello' }), {
    content: [
      { type: 'text', text: '{"id":1,"text":"hello","author":"alice"}' },
    ],
    structuredContent: { id: 1, text: 'hello', author: 'alice' },
  });
  deepStrictEqual(await mcp.callTool('notes_create', { text: 'hello' }), {
    content: [
      {
        type: 'text',
        text: 'SECURITY_DENIED_003: Authentication is required.',
      },
    ],
    isError: true,
  });
  await rejects(mcp.callTool('notes_delete'), McpProtocolError);

  const operations = OperationTestClient.create(moduleRef, {
    headers: { Authorization: 'Bearer bob-token' },
  });
  deepStrictEqual(await operations.invoke('notes.list'), {
    ok: true,
    value: { items: [{ id: 1, text: 'hello', author: 'alice' }] },
  });
  const denied = await operations.invoke('notes.create', { text: 'hi' });
  deepStrictEqual(
    denied.ok ? undefined : denied.failure.code,
    'SECURITY_DENIED_004',
  );

  await moduleRef.close();
  console.log('testing entry points: OK');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
