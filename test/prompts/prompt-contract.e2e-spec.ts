import { ContractError, OperationInvoker } from '@nestops/operations/internal';
import { McpProtocolError, McpTestClient } from '@nestops/mcp/testing';
import {
  DottedPrompt,
  FixturePrompts,
  NumberArgumentPrompt,
  OrphanCompleter,
  promptApp,
  PromptUserGuard,
  StrayCompleter,
} from '../fixtures/prompt-fixtures';
import { startupError } from '../fixtures/startup-fixtures';
import { mcpHttp } from '../support/mcp-http';
import { modernRequest } from '../support/modern-mcp';
import { startApp, useApp } from '../support/start-app';

/** Prompts and completions of a fixture app, on the wire of both revisions. */

const READER = { authorization: 'Bearer reader' };
const OTHER = { authorization: 'Bearer other' };

type Reply = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data: Record<string, unknown> };
};

describe('prompts and completions of a fixture app', () => {
  const app = useApp(() => startApp(promptApp()));
  const rpc = () => mcpHttp(app().baseUrl);
  const ask = async (
    method: string,
    params: Record<string, unknown>,
    headers: Record<string, string> = READER,
  ): Promise<Reply> => (await rpc().request(method, params, headers)).json();
  let nextId = 1;
  const askModern = async (
    method: string,
    params: Record<string, unknown>,
    headers: Record<string, string> = READER,
  ): Promise<Reply> =>
    (
      await rpc().post(modernRequest(nextId++, method, params), headers, {
        modern: true,
      })
    ).json();

  it('declares prompts and completions, and lists no prompt as a tool', async () => {
    const init = await rpc().result<{ capabilities: object }>('initialize', {
      protocolVersion: '2025-11-25',
    });
    expect(init.capabilities).toMatchObject({
      prompts: { listChanged: false },
      completions: {},
    });
    const { tools } = await rpc().result<{ tools: { name: string }[] }>(
      'tools/list',
    );
    expect(tools.map((tool) => tool.name)).toEqual(['notes_get']);
  });

  it('runs no prompt or completer as an operation, even once they have run', async () => {
    // Run both first: their pipelines are then prepared.
    await rpc().result('prompts/get', {
      name: 'pick',
      arguments: { choice: 'a' },
    });
    await rpc().result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'pick' },
      argument: { name: 'note', value: 'x' },
    });
    const invoker = app().app.get(OperationInvoker);
    for (const carrier of ['cli', 'mcp'] as const) {
      for (const id of ['pick', 'prompt:pick', 'completer:pick note']) {
        await expect(
          invoker.invoke(id, {
            carrier,
            target: id,
            headers: {},
            input: { choice: 'a' },
          }),
        ).rejects.toMatchObject({ name: 'OperationRefusedError' });
      }
    }
  });

  it('lists the prompts with their arguments, sorted by name', async () => {
    const { prompts } = await rpc().result<{ prompts: unknown[] }>(
      'prompts/list',
    );
    expect(prompts).toEqual([
      { name: 'guarded', description: 'Behind a method guard.' },
      {
        name: 'pick',
        title: 'Pick one',
        description: 'Picks a or b.',
        arguments: [
          { name: 'choice', description: 'a or b.', required: true },
          { name: 'note', required: false },
          { name: 'tone', required: false },
        ],
      },
      { name: 'secret', description: 'Needs notes.read.' },
    ]);
  });

  it('gets a prompt with every kind of content (2025 and 2026)', async () => {
    const expected = {
      description: 'Picked',
      messages: [
        { role: 'user', content: { type: 'text', text: 'picked b (hi)' } },
        {
          role: 'assistant',
          content: { type: 'audio', data: 'AQID', mimeType: 'audio/wav' },
        },
        {
          role: 'user',
          content: { type: 'resource_link', uri: 'notes://1', name: 'note 1' },
        },
      ],
    };
    const params = { name: 'pick', arguments: { choice: 'b', note: 'hi' } };
    expect((await ask('prompts/get', params)).result).toEqual(expected);
    expect((await askModern('prompts/get', params)).result).toMatchObject({
      resultType: 'complete',
      ...expected,
    });
  });

  it.each([
    ['a value outside the closed set', { choice: 'c' }, 'choice'],
    ['a missing required argument', {}, 'choice'],
    ['an unknown argument', { choice: 'a', colour: 'red' }, 'colour'],
  ])('refuses %s with -32602 naming the field', async (_case, args, field) => {
    for (const answer of [
      await ask('prompts/get', { name: 'pick', arguments: args }),
      await askModern('prompts/get', { name: 'pick', arguments: args }),
    ]) {
      expect(answer.error).toMatchObject({
        code: -32602,
        data: { code: 'VALIDATION_INVALID_001', fields: [field] },
      });
      expect(answer.error?.message).toContain(field);
    }
  });

  it('refuses arguments that are not strings, and an unknown prompt', async () => {
    expect(
      (await ask('prompts/get', { name: 'pick', arguments: { choice: 1 } }))
        .error,
    ).toMatchObject({
      code: -32602,
      data: { code: 'PROTOCOLS_VALIDATION_011' },
    });
    expect((await ask('prompts/get', { name: 'nope' })).error).toEqual({
      code: -32602,
      message: 'Unknown prompt: "nope".',
      data: { code: 'PROTOCOLS_NOTFOUND_004' },
    });
  });

  it('answers a prompt the caller may not use as an unknown one: permission and guard', async () => {
    const unknown = (name: string) => ({
      code: -32602,
      message: `Unknown prompt: "${name}".`,
      data: { code: 'PROTOCOLS_NOTFOUND_004' },
    });
    expect((await ask('prompts/get', { name: 'secret' }, OTHER)).error).toEqual(
      unknown('secret'),
    );
    expect((await ask('prompts/get', { name: 'secret' }, {})).error).toEqual(
      unknown('secret'),
    );
    expect(
      (await askModern('prompts/get', { name: 'guarded' }, OTHER)).error,
    ).toEqual(unknown('guarded'));
    expect((await ask('prompts/get', { name: 'secret' })).result).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'the secret' } },
      ],
    });
    expect((await ask('prompts/get', { name: 'guarded' })).result).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'past the guard' } },
      ],
    });
  });

  it('completes a closed set (@IsIn, @IsEnum, @IsBoolean) with no app code, by prefix, any case', async () => {
    const complete = (ref: object, name: string, value: string) =>
      ask('completion/complete', { ref, argument: { name, value } });
    expect(
      (await complete({ type: 'ref/prompt', name: 'pick' }, 'choice', ''))
        .result,
    ).toEqual({ completion: { values: ['a', 'b'], total: 2, hasMore: false } });
    expect(
      (await complete({ type: 'ref/prompt', name: 'pick' }, 'choice', 'B'))
        .result,
    ).toEqual({ completion: { values: ['b'], total: 1, hasMore: false } });
    expect(
      (await complete({ type: 'ref/prompt', name: 'pick' }, 'tone', 'P'))
        .result,
    ).toEqual({
      completion: { values: ['plain', 'polite'], total: 2, hasMore: false },
    });
    expect(
      (
        await complete(
          { type: 'ref/resource', uri: 'notes://{id}/{archived}' },
          'archived',
          't',
        )
      ).result,
    ).toEqual({ completion: { values: ['true'], total: 1, hasMore: false } });
  });

  it("runs a completer with the caller's rights, at most 100 values with total and hasMore", async () => {
    const fixture = app().app.get(FixturePrompts);
    fixture.completedFor.length = 0;
    const ref = { type: 'ref/resource', uri: 'notes://{id}/{archived}' };
    const { result } = await askModern('completion/complete', {
      ref,
      argument: { name: 'id', value: '' },
    });
    expect(result).toMatchObject({
      resultType: 'complete',
      completion: { total: 150, hasMore: true },
    });
    const values = (result?.completion as { values: string[] }).values;
    expect(values).toHaveLength(100);
    expect(values.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(fixture.completedFor).toEqual(['reader']);

    // notes.get needs notes.read: its completer too.
    expect(
      (
        await ask(
          'completion/complete',
          { ref, argument: { name: 'id', value: '1' } },
          OTHER,
        )
      ).error,
    ).toMatchObject({ code: -32602, data: { code: 'PROTOCOLS_NOTFOUND_005' } });
    expect(fixture.completedFor).toEqual(['reader']);
  });

  it('gives a completer the other arguments already given', async () => {
    const { result } = await ask('completion/complete', {
      ref: { type: 'ref/prompt', name: 'pick' },
      argument: { name: 'note', value: 'x' },
      context: { arguments: { choice: 'a' } },
    });
    expect(result).toEqual({
      completion: { values: ['a-x'], total: 1, hasMore: false },
    });
  });

  it.each([
    [{ type: 'ref/prompt', name: 'nope' }, 'choice'],
    [{ type: 'ref/resource', uri: 'notes://nothing' }, 'id'],
    [{ type: 'ref/prompt', name: 'pick' }, 'colour'],
    [{ type: 'ref/other' }, 'x'],
  ])('refuses the unknown reference %j (%s) with -32602', async (ref, name) => {
    const { error } = await ask('completion/complete', {
      ref,
      argument: { name, value: '' },
    });
    expect(error).toMatchObject({
      code: -32602,
      data: { code: 'PROTOCOLS_NOTFOUND_005' },
    });
  });
});

describe('prompts/list per caller (toolListPerCaller)', () => {
  const app = useApp(() =>
    startApp(
      promptApp([FixturePrompts], {
        toolListPerCaller: true,
        authGuard: PromptUserGuard,
      }),
    ),
  );
  const names = async (headers: Record<string, string>, modern = false) => {
    const http = mcpHttp(app().baseUrl);
    const reply = modern
      ? await http.post(modernRequest(1, 'prompts/list'), headers, {
          modern: true,
        })
      : await http.request('prompts/list', {}, headers);
    const { result } = reply.json<{
      result: { prompts: { name: string }[]; cacheScope?: string };
    }>();
    return [result.prompts.map((prompt) => prompt.name), result.cacheScope];
  };

  it('lists only the prompts whose permissions the caller holds, private in 2026', async () => {
    expect(await names(READER)).toEqual([
      ['guarded', 'pick', 'secret'],
      undefined,
    ]);
    expect(await names(OTHER)).toEqual([['guarded', 'pick'], undefined]);
    expect(await names({}, true)).toEqual([['guarded', 'pick'], 'private']);
  });
});

describe('prompts with the test kit (McpTestClient)', () => {
  const app = useApp(() => startApp(promptApp()));

  it('lists, gets and completes in-process, with the headers chosen', async () => {
    const mcp = McpTestClient.create(app().app, {
      headers: { authorization: 'Bearer reader' },
    });
    expect((await mcp.listPrompts()).map((prompt) => prompt.name)).toEqual([
      'guarded',
      'pick',
      'secret',
    ]);
    expect(await mcp.getPrompt('secret')).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'the secret' } },
      ],
    });
    expect(
      await mcp.complete({ type: 'ref/prompt', name: 'pick' }, 'note', 'n', {
        choice: 'b',
      }),
    ).toEqual({ values: ['b-n'], total: 1, hasMore: false });
    const error = await mcp
      .withHeaders({ authorization: 'Bearer other' })
      .getPrompt('secret')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error).toMatchObject({
      rpcCode: -32602,
      code: 'PROTOCOLS_NOTFOUND_004',
    });
  });
});

describe('startup checks of prompts and completers', () => {
  it.each([
    [NumberArgumentPrompt, /argument 'id' is not a string property/],
    [DottedPrompt, /Prompt name "notes.pick" on DottedPrompt.pick/],
    [
      StrayCompleter,
      /@Complete\('pick', 'colour'\) on StrayCompleter.colours: 'colour' is not an argument of prompt 'pick' \(it has 'choice', 'note', 'tone'\)/,
    ],
    [OrphanCompleter, /runs with the rights of prompt 'nowhere'/],
  ])('refuses %o with a message naming it', async (provider, message) => {
    const error = await startupError(
      promptApp(
        provider === StrayCompleter ? [FixturePrompts, provider] : [provider],
      ),
    );
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toMatch(message);
  });
});
