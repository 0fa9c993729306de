import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nestops/mcp';
import { McpTestClient } from '@nestops/mcp/testing';
import { Operation } from '@nestops/operations';
import {
  ContractAppModule,
  ContractOperations,
  created,
  IdiomAppModule,
  ScopedGuardAppModule,
} from '../fixtures/contract-fixtures';
import {
  PipelineAppModule,
  type TraceReport,
} from '../fixtures/pipeline-fixtures';
import { startApp } from '../support/start-app';

const GUARDS_METADATA = '__guards__';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function boot(module: object): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [module as never],
  }).compile();
  moduleRef.useLogger(false);
  return moduleRef.init();
}

function textOf(result: { content: readonly { text: string }[] }): string {
  return result.content[0].text;
}

describe('ContractAppModule: the contract of a call', () => {
  let app: TestingModule;
  let mcp: McpTestClient;

  beforeAll(async () => {
    app = await boot(ContractAppModule);
    mcp = McpTestClient.create(app);
  });
  afterAll(() => app.close());

  it('validates input: against its DTO even when the parameter is typed otherwise', async () => {
    const rejected = await mcp.callTool('loose_create', {
      name: 'x',
      amount: 0,
      extra: 1,
    });

    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toMatch(/^VALIDATION_INVALID_001: /);
    expect(textOf(rejected)).toContain('property extra should not exist');
    expect(textOf(rejected)).toContain('amount must not be less than 1');
  });

  it('hands the handler an instance of the declared DTO', async () => {
    const accepted = await mcp.callTool('loose_create', {
      name: 'x',
      amount: 2,
    });

    expect(accepted.structuredContent).toEqual({
      isDto: true,
      input: { name: 'x', amount: 2 },
    });
  });

  describe("guard order and the principal's permissions", () => {
    it.each(['array', 'set'])(
      'checks the permission after a method-level auth guard (permissions as %s)',
      async (kind) => {
        const result = await mcp
          .withHeaders({ Authorization: `Bearer ${kind}` })
          .callTool('contract_write');

        expect(result.structuredContent).toEqual({ written: true });
      },
    );

    it('denies a principal without the permission, and treats a null principal as anonymous', async () => {
      const lacking = await mcp
        .withHeaders({ Authorization: 'Bearer none' })
        .callTool('contract_write');
      const nobody = await mcp.callTool('contract_write');

      expect(textOf(lacking)).toBe(
        "SECURITY_DENIED_004: Permission 'contract.write' is missing.",
      );
      expect(textOf(nobody)).toBe(
        'SECURITY_DENIED_003: Authentication is required.',
      );
    });

    it("leaves the user's guard metadata alone, however many apps are built", async () => {
      const method = ContractOperations.prototype.write;
      const before = [...(Reflect.getMetadata(GUARDS_METADATA, method) ?? [])];

      const second = await boot(ContractAppModule);
      const third = await boot(ContractAppModule);
      await second.close();
      await third.close();

      expect(Reflect.getMetadata(GUARDS_METADATA, method)).toEqual(before);
      expect(before).toHaveLength(1);
    });
  });
});

describe('an input that cannot be validated stops the app at startup', () => {
  class Bare {
    name: string;
  }

  @Injectable()
  class BareOperations {
    @Operation({ id: 'bare.create' })
    create(input: Bare): Bare {
      return input;
    }
  }

  @Injectable()
  class PrimitiveOperations {
    @Operation({ id: 'primitive.create', input: String as never })
    create(input: string): string {
      return input;
    }
  }

  it.each([
    [
      'an undecorated DTO',
      BareOperations,
      "Operation 'bare.create' on BareOperations.create: its input Bare has no class-validator decorators",
    ],
    [
      'a primitive input',
      PrimitiveOperations,
      "Operation 'primitive.create' on PrimitiveOperations.create: input must be a DTO class with class-validator decorators, not String.",
    ],
  ])('%s', async (_case, provider, message) => {
    @Module({ imports: [McpModule.forRoot()], providers: [provider] })
    class AppModule {}

    await expect(boot(AppModule)).rejects.toThrow(message);
  });
});

describe('scopes', () => {
  let app: INestApplication;
  let baseUrl: string;

  beforeAll(async () => {
    created.singleton = 0;
    ({ app, baseUrl } = await startApp(ScopedGuardAppModule));
  });
  afterAll(() => app.close());

  it('keeps a singleton with an operation a singleton when a request-scoped APP_GUARD exists', async () => {
    const first = await (await fetch(`${baseUrl}/singleton`)).json();
    const second = await (await fetch(`${baseUrl}/singleton`)).json();
    const runs = created.guardRuns;
    const call = await McpTestClient.create(app).callTool('singleton_get');

    expect(first).toEqual({ number: 1 });
    expect(second).toEqual({ number: 1 });
    expect(call.structuredContent).toEqual({ number: 1 });
    expect(created.singleton).toBe(1);
    // The request-scoped global guard still runs for the call.
    expect(created.guardRuns).toBe(runs + 1);
  });

  it("gives Nest's request-scope idioms the call's context id", async () => {
    const idioms = await boot(IdiomAppModule);

    const result = await McpTestClient.create(idioms).callTool('idioms_check');

    expect(result.structuredContent).toEqual({
      sameInstance: true,
      stableId: true,
    });
    await idioms.close();
  });
});

describe('X-Tenant-Id and X-Correlation-Id values', () => {
  let app: TestingModule;
  let mcp: McpTestClient;

  beforeAll(async () => {
    app = await boot(PipelineAppModule.register({}));
    mcp = McpTestClient.create(app);
  });
  afterAll(() => app.close());

  it.each([
    ['129 characters', 't'.repeat(129)],
    ['a control character', 'acme\u0001'],
    ['a space', 'ac me'],
    ['a non-ASCII letter', 'müller'],
  ])(
    'refuses a tenant with %s: VALIDATION_INVALID_001',
    async (_case, tenant) => {
      const result = await mcp
        .withHeaders({ 'X-Tenant-Id': tenant })
        .callTool('pipeline_trace', {});

      expect(textOf(result)).toBe(
        'VALIDATION_INVALID_001: Invalid input: X-Tenant-Id must be 1 to 128 visible ASCII characters',
      );
    },
  );

  it('takes a tenant of 128 visible ASCII characters', async () => {
    const tenant = 't'.repeat(127) + '~';
    const result = await mcp
      .withHeaders({ 'X-Tenant-Id': tenant })
      .callTool('pipeline_trace', {});

    expect(
      (result.structuredContent as unknown as TraceReport).context.tenant,
    ).toBe(tenant);
  });

  it.each([
    ['129 characters', 'c'.repeat(129)],
    ['a control character', 'id\u0007'],
    ['a space', 'id 1'],
  ])(
    'replaces a correlation id with %s by a new UUID',
    async (_case, correlationId) => {
      const result = await mcp
        .withHeaders({ 'X-Correlation-Id': correlationId })
        .callTool('pipeline_trace', {});

      expect(
        (result.structuredContent as unknown as TraceReport).context
          .correlationId,
      ).toMatch(UUID);
    },
  );
});

describe('input limits set on McpModule', () => {
  it('holds each call to them, with the limit named', async () => {
    @Module({
      imports: [McpModule.forRoot({ inputLimits: { maxProperties: 2 } })],
      providers: [ContractOperations],
    })
    class LimitedAppModule {}
    const app = await boot(LimitedAppModule);
    const mcp = McpTestClient.create(app);

    const within = await mcp.callTool('loose_create', { name: 'x', amount: 1 });
    const beyond = await mcp.callTool('loose_create', {
      name: 'x',
      amount: 1,
      extra: true,
    });

    expect(within.isError).toBeUndefined();
    expect(textOf(beyond)).toBe(
      'VALIDATION_INVALID_001: Invalid input: input has more than 2 properties',
    );
    await app.close();
  });
});
