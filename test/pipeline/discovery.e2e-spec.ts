import { Injectable, Module, Scope } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nestops/mcp';
import { McpTestClient } from '@nestops/mcp/testing';
import { Operation } from '@nestops/operations';
import { OperationRegistry } from '@nestops/operations/internal';

class FactoryMadeOperations {
  @Operation({ id: 'made-by.factory' })
  run() {
    return { by: 'factory' };
  }
}

class ValueOperations {
  @Operation({ id: 'given.value' })
  run() {
    return { by: 'value' };
  }
}

@Injectable()
class ClassOperations {
  @Operation({ id: 'plain.class' })
  run() {
    return { by: 'class' };
  }
}

@Injectable({ scope: Scope.REQUEST })
class ScopedOperations {
  @Operation({ id: 'scoped.class' })
  run() {
    return { by: 'scoped' };
  }
}

@Module({
  imports: [McpModule.forRoot()],
  providers: [
    { provide: 'FACTORY_MADE', useFactory: () => new FactoryMadeOperations() },
    { provide: 'GIVEN_VALUE', useValue: new ValueOperations() },
    ClassOperations,
    { provide: 'ALIAS_OF_CLASS', useExisting: ClassOperations },
    ScopedOperations,
  ],
})
class DiscoveryAppModule {}

describe('discovery of @Operation methods', () => {
  let app: TestingModule;
  let mcp: McpTestClient;

  beforeAll(async () => {
    app = await Test.createTestingModule({
      imports: [DiscoveryAppModule],
    }).compile();
    app.useLogger(false);
    await app.init();
    mcp = McpTestClient.create(app);
  });
  afterAll(() => app.close());

  it('finds class, factory, value and request-scoped providers once each, skipping aliases', async () => {
    const ids = app
      .get(OperationRegistry)
      .list()
      .map((operation) => operation.id)
      .sort();
    expect(ids).toEqual([
      'given.value',
      'made-by.factory',
      'plain.class',
      'scoped.class',
    ]);

    const names = (await mcp.listTools()).map((tool) => tool.name).sort();
    expect(names).toEqual([
      'given_value',
      'made-by_factory',
      'plain_class',
      'scoped_class',
    ]);
  });

  it.each([
    ['made-by_factory', 'factory'],
    ['given_value', 'value'],
    ['plain_class', 'class'],
    ['scoped_class', 'scoped'],
  ])('calls %s on its provider', async (name, by) => {
    expect(await mcp.callTool(name, {})).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ by }) }],
      structuredContent: { by },
    });
  });
});
