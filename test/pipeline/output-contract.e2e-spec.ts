import type { InvocationResult } from '@nestops/operations';
import { formatFailure } from '@nestops/operations/internal';
import { OperationTestClient } from '@nestops/operations/testing';
import { CapturingLogger } from '../fixtures/pipeline-fixtures';
import { OutputAppModule, SignalOperations } from '../fixtures/output-fixtures';
import type { ToolResult } from '../support/json-rpc-shapes';
import {
  callTool,
  createStrictAjv,
  McpClients,
  type ClientV1,
} from '../support/mcp-clients';
import { errorText, mcpHttp } from '../support/mcp-http';
import { startApp, type RunningApp } from '../support/start-app';

type Schema = Record<string, unknown>;

const CREATED_AT = '2024-05-01T10:00:00.000Z';
const logger = new CapturingLogger();

/** The tools whose handlers return a result their output DTO can hold. */
const SUCCEEDING: Readonly<Record<string, Record<string, unknown>>> = {
  profiles_plain: {},
  profiles_entity: {},
  profiles_list: {},
  profiles_nullable: {},
};
/** The tools whose handlers return what their output DTO cannot hold. */
const BROKEN = [
  'profiles_nothing',
  'profiles_incomplete',
  'profiles_mistyped',
  'profiles_bad-item',
];

const profile = (id: number) => ({
  id,
  name: `user-${id}`,
  createdAt: CREATED_AT,
  owner: { id: 1, name: 'Ada' },
  tags: [{ label: 'a' }, { label: 'b' }],
});

describe('the output DTO is the contract of a result', () => {
  let running: RunningApp;
  let clients: McpClients;

  beforeAll(async () => {
    running = await startApp(OutputAppModule, { logger });
    clients = new McpClients(running.baseUrl);
  });
  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  const call = (name: string, headers: Record<string, string> = {}) =>
    mcpHttp(running.baseUrl).callTool(name, {}, headers);

  function expectSameText(result: ToolResult): void {
    expect(result.isError).toBeFalsy();
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0].text)).toEqual(
      result.structuredContent,
    );
  }

  describe('fields outside the DTO', () => {
    it('are left out at the top level, in a nested DTO and in array items, and a Date becomes its ISO string', async () => {
      const result = await call('profiles_plain');

      expectSameText(result);
      expect(result.structuredContent).toEqual(profile(1));
      for (const leaked of ['passwordHash', 'hash-of', 'email', 'internal']) {
        expect(result.content[0].text).not.toContain(leaked);
      }
    });

    it('are left out of the items of a list DTO, and beside them', async () => {
      const result = await call('profiles_list');

      expectSameText(result);
      expect(result.structuredContent).toEqual({
        items: [profile(1), profile(2)],
      });
    });

    it('are left out of a class instance written without @Expose(), whose own @Exclude() still counts', async () => {
      const result = await call('profiles_entity');

      expectSameText(result);
      expect(result.structuredContent).toEqual({
        id: 7,
        name: 'Grace',
        createdAt: CREATED_AT,
        owner: { id: 2, name: 'Ada' },
        tags: [{ label: 'x' }],
      });
      expect(result.content[0].text).not.toContain('secret nickname');
    });

    it('include an optional property only when it has a value (null is left out, as @IsOptional() reads it)', async () => {
      const result = await call('profiles_nullable');

      expectSameText(result);
      expect(result.structuredContent).toEqual(profile(3));
    });

    it('do not reach the official SDK v1 client, which accepts the result against the output schema', async () => {
      const client: ClientV1 = await clients.v1();
      await client.listTools();

      const outcome = await callTool(client, 'profiles_plain');

      expect(outcome.isError, outcome.text).toBe(false);
      expect(outcome.structuredContent).toEqual(profile(1));
    });
  });

  describe('a result the DTO cannot hold', () => {
    function loggedFor(correlationId: string): string {
      const logged = logger.errors.filter((entry) =>
        entry.includes(correlationId),
      );
      expect(logged).toHaveLength(1);
      return logged[0];
    }

    it.each([
      ['profiles_nothing', 'profiles.nothing', /undefined/],
      ['profiles_incomplete', 'profiles.incomplete', /required.*\bname\b/],
      ['profiles_mistyped', 'profiles.mistyped', /\/id\b.*integer/],
      ['profiles_bad-item', 'profiles.bad-item', /\/items\/1\/tags\b.*array/],
    ])(
      '%s fails with INTERNAL_ERROR_001, logged with the correlation id and the reason',
      async (tool, operationId, reason) => {
        const correlationId = `output-${tool}`;
        const result = await call(tool, { 'x-correlation-id': correlationId });

        expect(errorText(result)).toBe(
          `INTERNAL_ERROR_001: An unexpected error occurred (correlation id ${correlationId}).`,
        );
        expect(result).not.toHaveProperty('structuredContent');
        const logged = loggedFor(correlationId);
        expect(logged).toContain(operationId);
        expect(logged).toContain('output schema');
        expect(logged).toMatch(reason);
      },
    );
  });

  it('leaves a result without an output DTO as class-transformer serialises it', async () => {
    const result = await call('profiles_free');

    expectSameText(result);
    expect(result.structuredContent).toMatchObject({
      passwordHash: 'hash-of-8',
      createdAt: CREATED_AT,
      owner: { email: 'ada@example.com' },
    });
  });

  it('answers every tool with an outputSchema with a result that validates against it (ajv 2020, strict)', async () => {
    const client = await clients.v1();
    const { tools } = await client.listTools();
    const withSchema = tools.filter((tool) => tool.outputSchema);
    expect(withSchema.map((tool) => tool.name).sort()).toEqual(
      [...Object.keys(SUCCEEDING), ...BROKEN].sort(),
    );

    const ajv = createStrictAjv();
    for (const tool of withSchema) {
      const validate = ajv.compile(tool.outputSchema as Schema);
      const result = await mcpHttp(running.baseUrl).callTool(
        tool.name,
        SUCCEEDING[tool.name] ?? {},
      );
      if (BROKEN.includes(tool.name)) {
        expect(result.isError, tool.name).toBe(true);
        expect(result.structuredContent, tool.name).toBeUndefined();
        continue;
      }
      expect(result.isError, result.content[0].text).toBeFalsy();
      expect(
        validate(result.structuredContent),
        `${tool.name}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
    }
  });
});

describe('the timeout of a call', () => {
  let running: RunningApp;
  let client: OperationTestClient;

  beforeAll(async () => {
    running = await startApp(OutputAppModule, { logger });
    client = OperationTestClient.create(running.app);
  });
  afterAll(async () => {
    await running?.close();
  });

  const pause = (ms: number) =>
    new Promise((resolve) => setTimeout(resolve, ms));

  function failureText(result: InvocationResult): string {
    if (result.ok) {
      throw new Error(`The call succeeded: ${JSON.stringify(result.value)}`);
    }
    return formatFailure(result.failure);
  }

  it("never aborts the signal of a call that finished in time, even after the timeout's end", async () => {
    const signals = running.app.get(SignalOperations).signals;
    const result = await client.invoke('signals.quick', {}, { timeout: 100 });

    expect(result).toEqual({
      ok: true,
      value: { done: true },
      json: '{"done":true}',
    });
    const signal = signals.at(-1);
    expect(signal?.aborted).toBe(false);
    await pause(250);
    expect(signal?.aborted).toBe(false);
  });

  it.each([
    [1500, '1.5'],
    [250, '0.25'],
    [0.5, '0.0005'],
  ])('states a timeout of %s ms as %s s', async (timeout, seconds) => {
    const result = await client.invoke('signals.slow', {}, { timeout });

    expect(failureText(result)).toBe(
      `INTERNAL_TIMEOUT_001: The operation did not finish within ${seconds} s.`,
    );
  });

  it('lets a call run under a timeout longer than setTimeout can wait at once (2^31 ms and more)', async () => {
    const result = await client.invoke(
      'signals.pause',
      {},
      { timeout: 2 ** 31 + 1_000 },
    );

    expect(result).toEqual({
      ok: true,
      value: { aborted: false },
      json: '{"aborted":false}',
    });
  });
});
