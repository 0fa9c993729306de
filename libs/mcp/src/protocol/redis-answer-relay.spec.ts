import { Injectable, type LoggerService, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpModule } from '../mcp.module.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import type { RelayedAnswer } from './answer-relay.js';
import { resultValue } from './answer-text.js';
import { mcpCallOf } from './mcp-call-of.js';
import { classifyMessage } from './mcp-message.js';
import { McpProtocol } from './mcp-protocol.js';
import type { McpTransport } from './mcp-transport.js';
import { RedisAnswerRelay } from './redis-answer-relay.js';
import { ClientAnswers } from './client-answers.js';
import { Redis } from 'ioredis';

/**
 * Answers between instances over Redis pub/sub (the `redis` option): the
 * relay itself, then two instances of one app in this process, each with
 * its own Nest app and connections. Runs when REDIS_URL is set.
 */

const REDIS_URL = process.env.REDIS_URL;
const PREFIX = `test:mcp:answers:${process.pid}:${Date.now()}:`;

describe('without ioredis installed', () => {
  it('says to install it', () => {
    // A require from a directory with no node_modules above it: ioredis is missing.
    const bare = createRequire(
      join(mkdtempSync(join(tmpdir(), 'bare-')), 'x.js'),
    );
    expect(
      () =>
        new RedisAnswerRelay({ url: 'redis://x', channelPrefix: 'p:' }, () =>
          bare('ioredis'),
        ),
    ).toThrow(
      "McpModule's redis option needs the ioredis package (5 or 6): npm install ioredis",
    );
  });
});

describe.runIf(REDIS_URL)('the Redis relay', () => {
  const settings = { url: REDIS_URL!, channelPrefix: PREFIX };

  it("delivers an answer on its instance's channel only, and says when nobody listens", async () => {
    const listener = new RedisAnswerRelay(settings);
    const other = new RedisAnswerRelay(settings);
    const heard: RelayedAnswer[] = [];
    try {
      await listener.listen('a'.repeat(16), (answer) => heard.push(answer));
      await other.listen('b'.repeat(16), () => undefined);
      const answer = { id: `${'a'.repeat(16)}-1`, caller: 'c', result: 1 };
      expect(await other.publish('a'.repeat(16), answer)).toBe(true);
      expect(await other.publish('c'.repeat(16), answer)).toBe(false);
      await vi.waitFor(() => expect(heard).toEqual([answer]));
    } finally {
      await Promise.all([listener.close(), other.close()]);
    }
  });

  it('fails the start, naming the server without its password, when Redis cannot be reached', async () => {
    const relay = new RedisAnswerRelay({
      url: 'redis://user:s3cret@127.0.0.1:1',
      channelPrefix: PREFIX,
    });
    const failed = relay.listen('a'.repeat(16), () => undefined);
    await expect(failed).rejects.toThrow(
      /^McpModule's redis option: cannot connect to redis:\/\/user:\*\*\*@127\.0\.0\.1:1: connect ECONNREFUSED/,
    );
  });
});

/** Asks its client for its roots mid-call. */
@Injectable()
class Asking {
  @Operation({ id: 'roots.ask', readOnly: true, input: null })
  async ask(_input: unknown, context: InvocationContext) {
    return { answer: await mcpCallOf(context)!.sendRequest('roots/list') };
  }
}

class Warnings implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

describe.runIf(REDIS_URL)('two instances with the redis option', () => {
  @Module({
    imports: [
      McpModule.forRoot({
        serverName: 'relay',
        redis: { url: REDIS_URL!, channelPrefix: PREFIX },
      }),
    ],
    providers: [Asking],
  })
  class InstanceModule {}

  const warnings = new Warnings();
  const instances: TestingModule[] = [];
  let first: McpProtocol;
  let second: McpProtocol;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const ref = await Test.createTestingModule({
        imports: [InstanceModule],
      }).compile();
      ref.useLogger(warnings);
      await ref.init();
      ref.get(McpToolCatalogue).prepare();
      instances.push(ref);
    }
    [first, second] = instances.map((ref) => ref.get(McpProtocol));
  });
  afterAll(() => Promise.all(instances.map((ref) => ref.close())));

  const post = (peer: string, sent: Array<Record<string, unknown>> = []) =>
    ({
      kind: 'http',
      caller: { headers: {} },
      peer,
      stream: { open: true, send: (message) => sent.push({ ...message }) },
    }) satisfies McpTransport;
  const ask = classifyMessage({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'roots_ask', arguments: {} },
  });

  it("settles a call on one instance with its caller's answer that reached the other; another caller's is ignored and logged", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const answered = first.receive(ask, post('credentials bearer alice', sent));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const { id } = sent[0];
    const reply = (roots: number) =>
      classifyMessage({ jsonrpc: '2.0', id, result: { roots } });

    warnings.lines.length = 0;
    await second.receive(reply(0), post('credentials bearer mallory'));
    const foreign = `Ignored a client's answer to another caller's request (id ${JSON.stringify(id)})`;
    await vi.waitFor(() => expect(warnings.lines).toEqual([foreign]));

    await second.receive(reply(2), post('credentials bearer alice'));
    const response = (await answered) as { result: unknown };
    expect(resultValue(response.result)).toMatchObject({
      structuredContent: { answer: { roots: 2 } },
    });
    expect(warnings.lines).toEqual([foreign]);
  });

  it('listens on one channel per instance until the app shuts down', async () => {
    const redis = new Redis(REDIS_URL!);
    try {
      const listening = () => redis.pubsub('CHANNELS', `${PREFIX}*`);
      expect(((await listening()) as string[]).sort()).toEqual(
        instances
          .map((ref) => `${PREFIX}${ref.get(ClientAnswers).requests.instance}`)
          .sort(),
      );
      const extra = await Test.createTestingModule({
        imports: [InstanceModule],
      }).compile();
      extra.useLogger(warnings);
      await extra.init();
      expect(await listening()).toHaveLength(3);
      await extra.close();
      expect(await listening()).toHaveLength(2);
    } finally {
      await redis.quit();
    }
  });

  it('logs an answer to an instance that is gone, or to an id no instance gave', async () => {
    warnings.lines.length = 0;
    const gone = `${'f'.repeat(16)}-7`;
    await second.receive(
      classifyMessage({ jsonrpc: '2.0', id: gone, result: {} }),
      post('credentials bearer alice'),
    );
    await second.receive(
      classifyMessage({ jsonrpc: '2.0', id: 'forged:channel', result: {} }),
      post('credentials bearer alice'),
    );
    expect(warnings.lines).toEqual([
      `Ignored a client's answer to no request awaited (id "${gone}")`,
      `Ignored a client's answer to no request awaited (id "forged:channel")`,
    ]);
  });
});
