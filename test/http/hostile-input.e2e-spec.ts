import type { TestingModule } from '@nestjs/testing';
import { Test } from '@nestjs/testing';
import { McpTestClient } from '@nestops/mcp/testing';
import { request } from 'node:http';
import { DataSource } from 'typeorm';
import { BlobAppModule } from '../fixtures/hostile-fixtures';
import type { RpcBody, ToolResult } from '../support/json-rpc-shapes';
import { JSON_TYPE, type McpReply, mcpHttp } from '../support/mcp-http';
import { sampleTestingModule, useSampleApp } from '../support/sample-app';

/**
 * Input built to cost the server: huge objects, NUL and lone surrogates,
 * keys that name `Object.prototype` members. Each is refused with
 * `VALIDATION_INVALID_001` before it can tie up the event loop or reach a
 * handler.
 */

const ALICE = { Authorization: 'ApiKey dev-alice-key' };

function textOf(result: { content: readonly unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe('bounded work per call, over HTTP', () => {
  const running = useSampleApp('sqlite');
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' });

  async function pinged(): Promise<RpcBody> {
    return (await mcpHttp(running().baseUrl).post(ping, ALICE)).json();
  }

  it('refuses 80,000 unknown keys on orders_create at once, while concurrent pings are answered', async () => {
    // Keys that are refused when looked at, first and last: the answer is
    // the size limit's, so the refusal comes before any key is looked at.
    const args: Record<string, unknown> = {
      toString: 0,
      'nul\u0000key': 0,
      name: 'Tea',
      amount: 1,
    };
    for (let i = 0; i < 80_000; i++) {
      args[`k${i}`] = 0;
    }
    Object.assign(args, { valueOf: 0 });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 'big',
      method: 'tools/call',
      params: { name: 'orders_create', arguments: args },
    });
    const { baseUrl, dataSource } = running();
    const before = await dataSource.query('SELECT COUNT(*) AS n FROM orders');

    // The big call's body held back before its last byte: a ping answered
    // meanwhile is one the server handled with the big call in flight.
    const bigCall = postHeldBack(baseUrl, big);
    const during = await pinged();
    bigCall.release();
    const bigAnswer = await bigCall.answer;
    const after = await pinged();

    expect(bigCall.answeredBeforeRelease()).toBe(false);
    expect(during).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
    expect(after).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
    const result = (bigAnswer.json() as RpcBody).result as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      'VALIDATION_INVALID_001: Invalid input: input has more than 1000 properties',
    );
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM orders')).toEqual(
      before,
    );
  });
});

/**
 * A POST of `body` whose last byte is sent only on `release()`: until then
 * the request is in flight and cannot be answered.
 */
function postHeldBack(
  baseUrl: string,
  body: string,
): {
  release(): void;
  answeredBeforeRelease(): boolean;
  answer: Promise<McpReply>;
} {
  const bytes = Buffer.from(body, 'utf8');
  let released = false;
  let early = false;
  const req = request(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...JSON_TYPE,
      ...ALICE,
      'content-length': String(bytes.length),
    },
  });
  const answer = new Promise<McpReply>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      early = !released;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          text,
          header: (name) => res.headers[name.toLowerCase()] as string,
          json: <T>() => JSON.parse(text) as T,
        });
      });
    });
  });
  req.write(bytes.subarray(0, bytes.length - 1));
  return {
    release: () => {
      released = true;
      req.end(bytes.subarray(bytes.length - 1));
    },
    answeredBeforeRelease: () => early,
    answer,
  };
}

describe('strings and prototype-named keys on the sample app (in-process MCP)', () => {
  let moduleRef: TestingModule;
  let alice: McpTestClient;

  beforeAll(async () => {
    moduleRef = await sampleTestingModule();
  });
  afterAll(async () => {
    await moduleRef?.close();
  });
  beforeEach(async () => {
    await moduleRef.get(DataSource).query('DELETE FROM orders');
    alice = McpTestClient.create(moduleRef, {
      headers: { ...ALICE, 'X-Tenant-Id': 'acme' },
    });
  });

  async function orderNames(): Promise<string[]> {
    const listed = await alice.callTool('orders_list', {});
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const items = (listed.structuredContent as { items: { name: string }[] })
      .items;
    return items.map((item) => item.name);
  }

  it.each([
    ['NUL', 'Tea\u0000'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
    ['a reversed pair', '\udc00\ud800'],
  ])('refuses %s in orders_create name and writes nothing', async (_, name) => {
    const result = await alice.callTool('orders_create', { name, amount: 1 });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^VALIDATION_INVALID_001: .*\bname\b/);
    expect(await orderNames()).toEqual([]);
  });

  it('accepts a well-formed surrogate pair', async () => {
    const result = await alice.callTool('orders_create', {
      name: 'Tea \ud83c\udf75',
      amount: 1,
    });

    expect(result.isError, textOf(result)).toBeFalsy();
    expect(await orderNames()).toEqual(['Tea \ud83c\udf75']);
  });

  it('refuses NUL in orders_search nameContains', async () => {
    const result = await alice.callTool('orders_search', {
      nameContains: '\u0000',
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^VALIDATION_INVALID_001: .*\bnameContains\b/,
    );
  });

  // Every such key is refused in input.sanitizer.spec.ts; here, over MCP.
  it.each(['toString', '__lookupSetter__'])(
    'refuses the key %s as an unknown property and writes nothing',
    async (key) => {
      const result = await alice.callTool('orders_create', {
        name: 'Tea',
        amount: 1,
        [key]: 'x',
      });

      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `VALIDATION_INVALID_001: Invalid input: property ${key} should not exist`,
      );
      expect(await orderNames()).toEqual([]);
    },
  );
});

describe('@AllowRawText() lets a DTO property take any string', () => {
  let moduleRef: TestingModule;
  let mcp: McpTestClient;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [BlobAppModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    mcp = McpTestClient.create(moduleRef);
  });
  afterAll(async () => {
    await moduleRef?.close();
  });

  it('passes NUL and lone surrogates in the marked properties, nested ones too', async () => {
    const input = {
      data: 'a\u0000b\ud800',
      chunks: ['\u0000', '\udfff'],
      note: 'plain',
      part: { bytes: '\u0000\u0000', label: 'ok' },
      parts: [{ bytes: '\ud800' }],
    };

    const result = await mcp.callTool('blobs_echo', input);

    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual(input);
  });

  it('inherits the opt-out in a subclass', async () => {
    const result = await mcp.callTool('blobs_tag', {
      data: '\u0000',
      tag: 't',
    });

    expect(result.isError, textOf(result)).toBeFalsy();
  });

  it.each([
    [{ data: 'x', note: '\u0000' }, 'note'],
    [{ data: 'x', part: { bytes: 'x', label: '\u0000' } }, 'part.label'],
    [
      { data: 'x', parts: [{ bytes: 'x' }, { bytes: 'x', label: '\ud800' }] },
      'parts.1.label',
    ],
    [{ data: 'x', tag: '\u0000' }, 'tag'],
  ])(
    'still refuses them in the other properties: %j names %s',
    async (input, path) => {
      const result = await mcp.callTool(
        path === 'tag' ? 'blobs_tag' : 'blobs_echo',
        input,
      );

      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`Invalid input: ${path} `);
    },
  );

  it('refuses NUL in an unknown property as an unknown property', async () => {
    const result = await mcp.callTool('blobs_echo', {
      data: 'x',
      extra: '\u0000',
    });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^VALIDATION_INVALID_001: .*\bextra\b/);
  });
});

describe('unknown properties spread over nested DTOs', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [BlobAppModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
  });
  afterAll(async () => {
    await moduleRef?.close();
  });

  it('refuses more than 1,000 in one call before validation reports each', async () => {
    const part = (): Record<string, unknown> => {
      const value: Record<string, unknown> = { bytes: 'x' };
      for (let i = 0; i < 999; i++) {
        value[`k${i}`] = 0;
      }
      return value;
    };
    const parts = Array.from({ length: 80 }, part);

    const result = await McpTestClient.create(moduleRef).callTool(
      'blobs_echo',
      { data: 'x', parts },
    );

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'VALIDATION_INVALID_001: Invalid input: input has more than 1000 properties that its DTOs do not declare',
    );
  });
});
