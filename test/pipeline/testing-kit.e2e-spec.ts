import { Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nestops/mcp';
import { McpProtocolError, McpTestClient } from '@nestops/mcp/testing';
import { Operation } from '@nestops/operations';
import { OperationTestClient } from '@nestops/operations/testing';
import { sampleTestingModule } from '../support/sample-app';
import {
  PipelineAppModule,
  PRINCIPALS,
  type TraceReport,
} from '../fixtures/pipeline-fixtures';

const ALICE = { Authorization: 'ApiKey dev-alice-key' };
const BOB = { Authorization: 'ApiKey dev-bob-key' };

describe('the test kit on the sample app (TestingModule, no HTTP)', () => {
  let moduleRef: TestingModule;
  let mcp: McpTestClient;

  beforeAll(async () => {
    moduleRef = await sampleTestingModule();
    mcp = McpTestClient.create(moduleRef);
  });
  afterAll(async () => {
    await moduleRef?.close();
  });

  it('lists the tools as a client sees them', async () => {
    const tools = await mcp.listTools();

    expect(tools.map((tool) => tool.name)).toEqual([
      'orders_create',
      'orders_import',
      'orders_list',
      'orders_get',
      'orders_recent',
      'orders_delete',
      'orders_search',
      'orders_label',
      'orders_schedule-delivery',
      'orders_describe',
      'orders_report',
    ]);
  });

  it('calls a tool with the credentials and tenant of the chosen headers', async () => {
    const alice = mcp.withHeaders({ ...ALICE, 'X-Tenant-Id': 'globex' });

    const created = await alice.callTool('orders_create', {
      name: 'kit order',
      amount: 2,
    });

    expect(created.isError).toBeUndefined();
    expect(created.structuredContent).toMatchObject({
      tenant: 'globex',
      name: 'kit order',
      amount: 2,
    });
    expect(created.content).toEqual([
      { type: 'text', text: JSON.stringify(created.structuredContent) },
    ]);
    const listed = await alice.callTool('orders_list');
    expect(listed.structuredContent).toEqual({
      items: [created.structuredContent],
    });
  });

  it("runs the app's guard: a missing permission, invalid and absent credentials are isError results", async () => {
    const args = { name: 'denied', amount: 1 };

    expect(await mcp.withHeaders(BOB).callTool('orders_create', args)).toEqual({
      content: [
        {
          type: 'text',
          text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
        },
      ],
      isError: true,
    });
    const forged = await mcp
      .withHeaders({ authorization: 'ApiKey forged' })
      .callTool('orders_create', args);
    expect(forged.content[0].text).toMatch(/^SECURITY_DENIED_003: /);
    const anonymous = await mcp.callTool('orders_create', args);
    expect(anonymous.content[0].text).toMatch(/^SECURITY_DENIED_003: /);
  });

  it('matches header names in any case, and later headers win', async () => {
    const client = mcp
      .withHeaders({ AUTHORIZATION: 'ApiKey dev-bob-key' })
      .withHeaders({ authorization: 'ApiKey dev-alice-key' });

    const result = await client.callTool('orders_create', {
      name: 'case',
      amount: 1,
    });

    expect(result.isError).toBeUndefined();
  });

  it('lists and reads resources; a URI the caller cannot read throws the not-found McpProtocolError', async () => {
    const alice = mcp.withHeaders({ ...ALICE, 'X-Tenant-Id': 'initech' });
    const created = await alice.callTool('orders_create', {
      name: 'kit resource',
      amount: 2,
    });
    const { id } = created.structuredContent as { id: number };

    expect((await alice.listResources()).map((r) => r.uri)).toEqual([
      'orders://recent',
    ]);
    expect(
      (await alice.listResourceTemplates()).map((t) => t.uriTemplate),
    ).toEqual(['orders://{id}']);
    const [content] = await alice.readResource(`orders://${id}`);
    expect(content).toMatchObject({
      uri: `orders://${id}`,
      mimeType: 'application/json',
    });
    expect(JSON.parse((content as { text: string }).text)).toMatchObject({
      id,
      tenant: 'initech',
    });
    const bob = mcp.withHeaders({ Authorization: 'ApiKey dev-bob-key' });
    await expect(bob.readResource(`orders://${id}`)).rejects.toMatchObject({
      rpcCode: -32002,
      code: 'PROTOCOLS_NOTFOUND_003',
      message: `Resource not found: "orders://${id}".`,
    });
  });

  it('throws McpProtocolError for a malformed call, with the error table codes', async () => {
    const unknown = mcp.callTool('orders_explode');

    await expect(unknown).rejects.toBeInstanceOf(McpProtocolError);
    await expect(unknown).rejects.toMatchObject({
      rpcCode: -32602,
      code: 'PROTOCOLS_NOTFOUND_002',
    });
    // A server without the subscribe capability has no resources/subscribe.
    await expect(
      mcp.request('resources/subscribe', { uri: 'orders://recent' }),
    ).rejects.toMatchObject({
      rpcCode: -32601,
      code: 'PROTOCOLS_NOTFOUND_001',
    });
    expect(
      await mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ).toBeUndefined();
  });

  it('invokes an operation and returns the outcome as a value', async () => {
    const operations = OperationTestClient.create(moduleRef, {
      headers: { ...ALICE, 'x-tenant-id': 'acme' },
    });

    const created = await operations.invoke('orders.create', {
      name: 'direct',
      amount: 5,
    });
    const denied = await operations
      .withHeaders(BOB)
      .invoke('orders.create', { name: 'direct', amount: 5 });
    const invalid = await operations.invoke('orders.create', {
      name: 'direct',
      amount: 0,
    });

    expect(created).toMatchObject({
      ok: true,
      value: { tenant: 'acme', name: 'direct', amount: 5 },
    });
    expect(denied).toEqual({
      ok: false,
      failure: {
        code: 'SECURITY_DENIED_004',
        key: 'nestops.errors.SECURITY_DENIED_004',
        params: { permission: 'orders.write' },
      },
      text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
    });
    expect(invalid).toMatchObject({
      ok: false,
      failure: { code: 'VALIDATION_INVALID_001' },
    });
  });

  it('refuses an unknown operation', async () => {
    await expect(
      OperationTestClient.create(moduleRef).invoke('orders.explode'),
    ).rejects.toThrow("Unknown operation 'orders.explode'.");
  });
});

describe('the test kit carries every header into the invocation context', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [PipelineAppModule.register({ tools: {} })],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
  });
  afterAll(async () => {
    await moduleRef?.close();
  });

  it('credentials, tenant, locale and correlation id reach guards and handler', async () => {
    const result = await McpTestClient.create(moduleRef, {
      headers: {
        Authorization: 'Bearer writer-token',
        'X-Tenant-Id': 'acme',
        'Accept-Language': 'zh-CN,zh;q=0.9',
        'X-Correlation-Id': 'kit-1',
      },
    }).callTool('pipeline_trace', { note: 'hi' });

    const report = result.structuredContent as unknown as TraceReport;
    expect(report.principal).toEqual(PRINCIPALS.get('Bearer writer-token'));
    expect(report.note).toBe('hi');
    expect(report.context).toMatchObject({
      carrier: 'mcp',
      target: 'pipeline_trace',
      operationId: 'pipeline.trace',
      tenant: 'acme',
      locale: 'zh-CN',
      correlationId: 'kit-1',
    });
  });

  it('lets the operation client choose carrier, target and timeout', async () => {
    const result = await OperationTestClient.create(moduleRef, {
      carrier: 'cli',
    }).invoke('pipeline.trace', {}, { target: 'invoke', timeout: 5_000 });

    expect(result.ok).toBe(true);
    const report = (result as { value: TraceReport }).value;
    expect(report.context).toMatchObject({
      carrier: 'cli',
      target: 'invoke',
      operationId: 'pipeline.trace',
    });
    expect(report.context.deadline).not.toBeNull();
  });
});

describe('the test kit explains what is missing', () => {
  @Module({})
  class NoMcpModule {}

  class HiddenOperations {
    @Operation({ id: 'hidden.get', expose: ['cli'] })
    get(): { ok: true } {
      return { ok: true };
    }
  }

  @Module({ imports: [McpModule.forRoot()], providers: [HiddenOperations] })
  class HiddenModule {}

  it('an app without McpModule', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [NoMcpModule],
    }).compile();

    expect(() => McpTestClient.create(moduleRef)).toThrow(
      'McpModule is not in this application: import McpModule.forRoot() into it.',
    );
    await expect(
      OperationTestClient.create(moduleRef).invoke('a.get'),
    ).rejects.toThrow(
      'OperationRegistry is not in this application: import McpModule (or OperationsModule) into it.',
    );
  });

  it('an app that is not initialised', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HiddenModule],
    }).compile();

    await expect(
      OperationTestClient.create(moduleRef).invoke('hidden.get'),
    ).rejects.toThrow(
      'The application is not initialised: call init() on it (or on the TestingModule) before calling operations.',
    );
  });

  it('an operation not exposed on the carrier', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [HiddenModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();

    await expect(
      OperationTestClient.create(moduleRef).invoke('hidden.get'),
    ).rejects.toThrow(
      "Operation 'hidden.get' is not exposed on the 'mcp' carrier.",
    );
    expect(
      await OperationTestClient.create(moduleRef, { carrier: 'cli' }).invoke(
        'hidden.get',
      ),
    ).toEqual({ ok: true, value: { ok: true }, json: '{"ok":true}' });
    await moduleRef.close();
  });
});
