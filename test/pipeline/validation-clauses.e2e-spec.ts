import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, McpClients } from '../support/mcp-clients';
import { startSampleApp, type RunningSample } from '../support/sample-app';
import { CLI } from '../support/sample-process';

/**
 * A validation failure names each field once: an absent field as
 * required, a value of the wrong type by its type, whatever other rules
 * the field has (the sample's `orders_create`: `name` has four, `amount`
 * three). Over MCP with the SDK v1 client and with the CLI's `invoke`.
 */

const ALICE = 'dev-alice-key';

const CASES = [
  {
    input: {},
    'en-US':
      'VALIDATION_INVALID_001: Invalid input: name is required; amount is required',
    'zh-CN': 'VALIDATION_INVALID_001: 输入无效：name 为必填项; amount 为必填项',
  },
  {
    input: { amount: 3 },
    'en-US': 'VALIDATION_INVALID_001: Invalid input: name is required',
    'zh-CN': 'VALIDATION_INVALID_001: 输入无效：name 为必填项',
  },
  {
    input: { name: 7, amount: '3' },
    'en-US':
      'VALIDATION_INVALID_001: Invalid input: name must be a string; amount must be an integer number',
    'zh-CN':
      'VALIDATION_INVALID_001: 输入无效：name 必须是字符串; amount 必须是整数',
  },
  {
    input: { name: null, amount: 0.5 },
    'en-US':
      'VALIDATION_INVALID_001: Invalid input: name must be a string; amount must be an integer number',
    'zh-CN':
      'VALIDATION_INVALID_001: 输入无效：name 必须是字符串; amount 必须是整数',
  },
] as const;

describe('validation failures of orders_create over MCP (SDK v1)', () => {
  let running: RunningSample;
  let clients: McpClients;

  beforeAll(async () => {
    running = await startSampleApp();
    clients = new McpClients(running.baseUrl);
  });
  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  it.each(CASES)('names each field of $input once', async (testCase) => {
    for (const language of ['en-US', 'zh-CN'] as const) {
      const alice = await clients.v1({ apiKey: ALICE, language });
      const outcome = await callTool(alice, 'orders_create', testCase.input);
      expect(outcome).toMatchObject({
        isError: true,
        text: testCase[language],
      });
    }
  });

  it('still names every rule a value of the right type breaks', async () => {
    const alice = await clients.v1({ apiKey: ALICE });
    const outcome = await callTool(alice, 'orders_create', {
      name: '',
      amount: 0,
    });
    expect(outcome.text).toBe(
      'VALIDATION_INVALID_001: Invalid input: name should not be empty; amount must not be less than 1',
    );
  });
});

describe("validation failures of orders.create with the CLI's invoke", () => {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => name !== 'DATABASE_URL' && name !== 'MCP_AUTHORIZATION',
      ),
    ),
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'clauses-')), 'o.sqlite'),
  };

  // Each run boots the app, so one: the clauses are the ones MCP answers
  // above (the same code), and cli.e2e-spec.ts has an en-US failure.
  it.each([[JSON.stringify(CASES[2].input), 'zh-CN', CASES[2]]] as const)(
    'names each field of %s once in %s, exit 1',
    (_input, language, testCase) => {
      const run = spawnSync(
        process.execPath,
        [
          CLI,
          'invoke',
          'orders.create',
          JSON.stringify(testCase.input),
          '--authorization',
          `ApiKey ${ALICE}`,
          '--locale',
          language,
        ],
        { env, encoding: 'utf8', input: '' },
      );
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${testCase[language]}\n`);
    },
    30_000,
  );
});
