import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import type { OperationSemantics } from '@nestops/operations/internal';
import { createTool, defaultToolName } from './mcp-tool.factory.js';

function operation(
  id: string,
  extra: Partial<OperationDefinition> = {},
): OperationDefinition {
  const dot = id.lastIndexOf('.');
  return {
    id,
    resource: id.slice(0, dot),
    verb: id.slice(dot + 1),
    expose: ['mcp', 'cli'],
    permissions: [],
    stability: 'stable',
    semantics: { readOnly: false, destructive: true, idempotent: false },
    transaction: {},
    source: 'OrdersService.method',
    ...extra,
  };
}

const OBJECT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};

class InputDto {}

describe('defaultToolName', () => {
  it.each([
    ['orders.create', 'orders_create'],
    ['tenant-members.list', 'tenant-members_list'],
    ['billing.invoices.send', 'billing_invoices_send'],
    ['a.b.c.d', 'a_b_c_d'],
  ])('%s -> %s', (id, name) => {
    expect(defaultToolName(id)).toBe(name);
    expect(name).not.toContain('.');
  });
});

describe('createTool', () => {
  it('uses the given name', () => {
    expect(createTool('place_order', operation('orders.create')).name).toBe(
      'place_order',
    );
  });

  it('publishes an object input schema as it is', () => {
    const tool = createTool(
      'orders_create',
      operation('orders.create', {
        input: InputDto,
        inputSchema: OBJECT_SCHEMA,
      }),
    );

    expect(tool.inputSchema).toBe(OBJECT_SCHEMA);
  });

  it('publishes a closed empty object for an operation without input', () => {
    const tool = createTool('orders_purge', operation('orders.purge'));

    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it.each<[string, JsonSchema | undefined]>([
    ['no schema', undefined],
    ['an array schema', { type: 'array', items: { type: 'string' } }],
    ['a string schema', { type: 'string' }],
    ['a nullable object schema', { type: ['object', 'null'] }],
    ['a schema without type', { properties: { a: { type: 'string' } } }],
  ])(
    'uses {type: "object"} as the schema of an input with %s',
    (_case, inputSchema) => {
      const tool = createTool(
        'orders_create',
        operation('orders.create', { input: InputDto, inputSchema }),
      );

      expect(tool.inputSchema).toEqual({ type: 'object' });
    },
  );

  it('publishes an object output schema', () => {
    const tool = createTool(
      'orders_get',
      operation('orders.get', { outputSchema: OBJECT_SCHEMA }),
    );

    expect(tool.outputSchema).toBe(OBJECT_SCHEMA);
  });

  it.each<[string, JsonSchema | undefined]>([
    ['no schema', undefined],
    ['an array schema', { type: 'array', items: { type: 'string' } }],
    ['a string schema', { type: 'string' }],
    ['a schema without type', {}],
  ])('omits outputSchema for %s', (_case, outputSchema) => {
    const tool = createTool(
      'orders_list',
      operation('orders.list', { outputSchema }),
    );

    expect(tool).not.toHaveProperty('outputSchema');
    expect(Object.keys(tool)).not.toContain('outputSchema');
  });

  it('has no title or description of its own', () => {
    const tool = createTool('orders_get', operation('orders.get'));

    expect(Object.keys(tool).sort()).toEqual([
      'annotations',
      'inputSchema',
      'name',
    ]);
  });

  // The semantics of each kind of operation and the hints it must produce.
  it.each<[string, OperationSemantics, boolean, boolean, boolean]>([
    [
      'read-only (get, list, readOnly: true)',
      { readOnly: true, destructive: false, idempotent: true },
      true,
      false,
      true,
    ],
    [
      'create',
      { readOnly: false, destructive: false, idempotent: false },
      false,
      false,
      false,
    ],
    [
      'update',
      { readOnly: false, destructive: false, idempotent: true },
      false,
      false,
      true,
    ],
    [
      'delete',
      { readOnly: false, destructive: true, idempotent: true },
      false,
      true,
      true,
    ],
    [
      'any other verb',
      { readOnly: false, destructive: true, idempotent: false },
      false,
      true,
      false,
    ],
  ])(
    'maps the %s row of the annotation table',
    (_row, semantics, readOnlyHint, destructiveHint, idempotentHint) => {
      const tool = createTool('orders_x', operation('orders.x', { semantics }));

      expect(tool.annotations).toEqual({
        readOnlyHint,
        destructiveHint,
        idempotentHint,
      });
    },
  );

  it('copies each semantic flag to its own hint', () => {
    const tool = createTool(
      'x_y',
      operation('x.y', {
        semantics: { readOnly: true, destructive: true, idempotent: false },
      }),
    );

    expect(tool.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: true,
      idempotentHint: false,
    });
  });

  it('returns a frozen tool', () => {
    const tool = createTool(
      'orders_create',
      operation('orders.create', { outputSchema: OBJECT_SCHEMA }),
    );

    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.annotations)).toBe(true);
    expect(Object.isFrozen(tool.inputSchema)).toBe(true);
  });
});
