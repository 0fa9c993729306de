import { CLI } from '../support/sample-process';
import {
  FIXTURE,
  ALICE,
  BOB,
  runCli,
  RawSession,
  call,
  textOf,
} from '../support/sample-cli';

/** The sample's `mcp` command: the raw stdin/stdout contract. */

describe('mcp: the raw stdin/stdout contract', () => {
  it('round-trips a Chinese argument while stdout stays pure ASCII', async () => {
    const session = RawSession.start(CLI, ['--authorization', ALICE]);
    const name = '茶 🍵 Grüße';
    session.send(call(1, 'orders_create', { name, amount: 2 }));
    const answer = await session.answer(1);
    const finished = await session.close();
    const bytes = Buffer.concat(session.stdoutBytes);
    expect([...bytes].every((byte) => byte < 0x80)).toBe(true);
    expect(bytes.toString('latin1')).toContain('\\u8336 \\ud83c\\udf75');
    expect(
      (answer.result as { structuredContent: { name: string } })
        .structuredContent.name,
    ).toBe(name);
    expect(finished.code).toBe(0);
  });

  it('answers a malformed line and a line longer than maxBodySize with their errors, a notification with nothing, and goes on', async () => {
    const session = RawSession.start(CLI, []);
    session.sendLine('{"jsonrpc":"2.0","id":1,"method":');
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    session.sendLine('[]');
    session.sendLine(`"${'x'.repeat(1024 * 1024 + 10)}"`);
    session.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await session.answer(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {},
    });
    const finished = await session.close();
    expect(session.answers).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32700 }),
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32600 }),
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({
          code: -32600,
          message: expect.stringMatching(/at most 1048576 bytes/),
        }),
      },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(finished.code).toBe(0);
  });

  it('follows the 2026-07-28 era rules by the body alone, next to 2025 messages', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const session = RawSession.start(CLI, ['--authorization', BOB]);
    session.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: meta },
    });
    session.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'orders_create',
        arguments: { name: 'x', amount: 1 },
        _meta: meta,
      },
    });
    session.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2026-07-28', _meta: meta },
    });
    session.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/list',
      params: {
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    });
    session.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    const [discovered, denied, initialize, noCapabilities, ping] =
      await Promise.all([1, 2, 3, 4, 5].map((id) => session.answer(id)));
    await session.close();
    expect(discovered.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
    });
    expect(denied.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [
        {
          type: 'text',
          text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
        },
      ],
    });
    expect(initialize.error).toMatchObject({ code: -32601 });
    expect(noCapabilities.error).toMatchObject({ code: -32602 });
    expect(ping).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });

  it('answers a fast call while a slow one is under way', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send(call(1, 'timing_wait'));
    session.send(call(2, 'timing_echo'));
    await session.answer(2);
    expect(session.answers.map((answer) => answer.id)).toEqual([2]);
    await session.answer(1);
    expect((await session.close()).code).toBe(0);
  });

  it('writes the messages a call sends ahead of its answer as lines of their own: three lines', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send(call(1, 'timing_report'));
    await session.answer(1);
    expect((await session.close()).code).toBe(0);
    const note = (data: string) => ({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data },
    });
    expect(session.answers).toEqual([
      note('first'),
      note('second'),
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          content: [{ type: 'text', text: '{"reported":2}' }],
          structuredContent: { reported: 2 },
        },
      },
    ]);
  });

  it('finishes the calls under way when stdin closes, then exits 0; every log line (Nest, the app, console.log) goes to stderr', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    session.send(call(2, 'timing_wait'));
    await session.answer(1);
    const finished = await session.close();
    expect(finished.code).toBe(0);
    expect(session.answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      expect.objectContaining({
        id: 2,
        result: expect.objectContaining({
          structuredContent: { waited: 1500 },
        }),
      }),
    ]);
    expect(finished.stdout.split('\n')).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      expect.stringMatching(/^\{"jsonrpc":"2\.0","id":2,"result":/),
      '',
    ]);
    expect(finished.stderr).toContain('a banner on stdout');
    expect(finished.stderr).toContain('a warning from the app');
  });

  it('applies --timeout to every call', async () => {
    const session = RawSession.start(FIXTURE, ['--timeout', '0.2']);
    session.send(call(1, 'timing_wait'));
    expect(textOf(await session.answer(1))).toBe(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 0.2 s.',
    );
    await session.close();
  });

  it('answers calls with invalid credentials SECURITY_DENIED_003 and goes on', async () => {
    const session = RawSession.start(CLI, ['--authorization', 'ApiKey wrong']);
    session.send(call(1, 'orders_list'));
    const denied = await session.answer(1);
    session.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const listed = await session.answer(2);
    await session.close();
    expect(denied.result).toMatchObject({ isError: true });
    expect(textOf(denied)).toMatch(/^SECURITY_DENIED_003: /);
    expect((listed.result as { tools: unknown[] }).tools).toHaveLength(11);
  });

  it('carries --tenant and --correlation into every call', async () => {
    const session = RawSession.start(CLI, [
      '--authorization',
      ALICE,
      '--tenant',
      'acme',
      '--correlation',
      'cli-1',
    ]);
    session.send(call(1, 'orders_create', { name: 'a', amount: 1 }));
    const created = await session.answer(1);
    await session.close();
    expect(created.result).toMatchObject({
      structuredContent: { tenant: 'acme' },
    });
  });

  it('refuses a tenant the key does not hold, on every call of the session', async () => {
    const session = RawSession.start(CLI, [
      '--authorization',
      BOB,
      '--tenant',
      'globex',
    ]);
    session.send(call(1, 'orders_list'));
    const refused = await session.answer(1);
    await session.close();
    expect(refused.result).toMatchObject({ isError: true });
    expect(textOf(refused)).toBe(
      "SECURITY_DENIED_005: Tenant 'globex' is not one of the caller's tenants.",
    );
  });

  it.each([
    [['--timeout', '0'], '--timeout'],
    [['--timeout', 'abc'], '--timeout'],
    [['--timeout', '-1'], '--timeout'],
    [['--authorization', 'nospace'], '--authorization'],
    [['--tenant', ''], '--tenant'],
    [['--locale', 'zh CN'], '--locale'],
    [['--unknown'], '--unknown'],
  ])(
    'exits 64 with one usage line and no session for %j',
    async (args, option) => {
      const run = await runCli(['mcp', ...args]);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(option);
      expect(lines[0]).toContain('usage: order-desk mcp');
    },
  );

  it('exits 64 for invalid credentials in MCP_AUTHORIZATION too', async () => {
    const run = await runCli(['mcp'], { MCP_AUTHORIZATION: 'nospace' });
    expect(run.code).toBe(64);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
