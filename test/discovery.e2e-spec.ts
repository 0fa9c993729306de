import { Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { McpModule } from '@nestops/mcp';
import { Operation, OperationRegistry } from '@nestops/operations';
import { listen, RunningApp } from './support/sample-app';

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

async function call(baseUrl: string, method: string, params?: object) {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result: Record<string, unknown> };
}

describe('discovery of @Operation methods', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await listen(
      await NestFactory.create<NestExpressApplication>(DiscoveryAppModule, {
        logger: false,
      }),
    );
  });
  afterAll(() => running.close());

  it('finds class, factory, value and request-scoped providers once each, skipping aliases', async () => {
    const ids = running.app
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

    const { result } = await call(running.baseUrl, 'tools/list');
    const names = (result.tools as { name: string }[])
      .map((tool) => tool.name)
      .sort();
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
    const { result } = await call(running.baseUrl, 'tools/call', {
      name,
      arguments: {},
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ by }) }],
      structuredContent: { by },
    });
  });
});
