import { spawn } from 'node:child_process';
import { childEnv, type Finished, finished } from '../support/cli-process';
import { NEEDS_DATABASE_URL } from '../support/databases';
import { withClient } from '../support/pg-schema';
import { createSlowTriggers } from '../support/slow-triggers';
import { sampleEnv } from '../support/sample-app';
import { CLI } from '../support/sample-process';

/**
 * Deadlines on the command line tell the truth, on PostgreSQL: a create
 * whose COMMIT outlasts `--timeout` (a deferred constraint trigger sleeps
 * 2.5 s at COMMIT) is answered as committed, on `invoke` and on stdio; one
 * whose INSERT itself outlasts it (a row trigger sleeps before the write)
 * is rolled back and answered `INTERNAL_TIMEOUT_001`. The 1 s deadline
 * leaves a loaded machine time to reach the commit.
 */

const ALICE = 'ApiKey dev-alice-key';
const url = process.env.DATABASE_URL;

/** The sample's command line on the schema of `vars`, to the end, with `input` as stdin. */
function runCli(
  vars: Record<string, string>,
  args: readonly string[],
  input?: string,
): Promise<Finished> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: childEnv({ ...vars, MCP_AUTHORIZATION: ALICE }),
  });
  child.stdin.end(input);
  return finished(child);
}

const createLine = (id: number, name: string) =>
  `${JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'orders_create', arguments: { name, amount: 1 } },
  })}\n`;

describe.runIf(url)('deadlines on the command line (PostgreSQL)', () => {
  let vars: Record<string, string>;
  let dispose: () => Promise<void>;
  let schema: string;

  beforeAll(async () => {
    const env = await sampleEnv('postgres');
    vars = Object.fromEntries(
      Object.entries(env.vars).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    schema = vars.DATABASE_SCHEMA;
    dispose = env.dispose;
    // The migrations make the table; then the triggers that slow a write.
    expect((await runCli(vars, ['invoke', 'orders.list'])).code).toBe(0);
    await withClient(
      url as string,
      (client) => createSlowTriggers(client, 'orders'),
      schema,
    );
  }, 60_000);

  afterAll(() => dispose?.());

  async function names(): Promise<string[]> {
    return withClient(
      url as string,
      async (client) =>
        (
          await client.query<{ name: string }>(
            'SELECT name FROM orders ORDER BY id',
          )
        ).rows.map((row) => row.name),
      schema,
    );
  }

  it('invoke: a commit that outlasts --timeout is answered as committed', async () => {
    const run = await runCli(vars, [
      'invoke',
      'orders.create',
      '{"name":"slow commit 1","amount":1}',
      '--timeout',
      '1',
    ]);
    expect(run.stderr).not.toMatch(/INTERNAL_TIMEOUT_001/);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'slow commit 1' });
    expect(await names()).toContain('slow commit 1');
  }, 30_000);

  it('invoke: a write that outlasts --timeout before its commit is rolled back and says so', async () => {
    const run = await runCli(vars, [
      'invoke',
      'orders.create',
      '{"name":"slow insert 1","amount":1}',
      '--timeout',
      '1',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 1 s.',
    );
    // The INSERT runs on until its trigger is done, then is rolled back.
    await new Promise((settle) => setTimeout(settle, 2_000));
    expect(await names()).not.toContain('slow insert 1');
  }, 30_000);

  it('stdio: the same two calls, answered as the database has them', async () => {
    const run = await runCli(
      vars,
      ['mcp', '--timeout', '1'],
      createLine(1, 'slow commit 2') + createLine(2, 'slow insert 2'),
    );
    expect(run.code).toBe(0);
    const answers = run.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id: number;
            result: { isError?: boolean; content: { text: string }[] };
          },
      );
    const byId = new Map(answers.map((answer) => [answer.id, answer.result]));
    expect(byId.get(1)?.isError).toBeUndefined();
    expect(byId.get(2)).toMatchObject({
      isError: true,
      content: [
        {
          text: 'INTERNAL_TIMEOUT_001: The operation did not finish within 1 s.',
        },
      ],
    });
    await new Promise((settle) => setTimeout(settle, 2_000));
    const written = await names();
    expect(written).toContain('slow commit 2');
    expect(written).not.toContain('slow insert 2');
  }, 30_000);
});

if (!url) {
  describe('deadlines on the command line (PostgreSQL)', () => {
    it.skip(NEEDS_DATABASE_URL, () => undefined);
  });
}
