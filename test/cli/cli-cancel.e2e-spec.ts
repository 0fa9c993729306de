import { spawn } from 'node:child_process';
import { childEnv, finished } from '../support/cli-process';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { sampleEnv } from '../support/sample-app';
import { CLI } from '../support/sample-process';

/**
 * `notifications/cancelled` on the sample's stdio host, on its own
 * database: an `orders.import` of 1,000 orders cancelled once its first
 * progress arrives is never answered, creates nothing (its transaction
 * rolls back), and the session goes on serving. On SQLite too, whose
 * synchronous driver would starve the event loop if the import did not
 * give it a turn at each progress report.
 */

type Line = {
  id?: number;
  method?: string;
  params?: { progressToken?: string; progress?: number };
  result?: { structuredContent?: { items?: unknown[] }; isError?: boolean };
};

const line = (message: object) => `${JSON.stringify(message)}\n`;

describe.each(DATABASES)('cancelling a call on stdio ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  let vars: Record<string, string>;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const env = await sampleEnv(db.database);
    vars = Object.fromEntries(
      Object.entries(env.vars).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    dispose = env.dispose;
  });
  afterAll(() => dispose?.());

  it('an import cancelled under way is not answered, creates nothing, and the session serves on', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: childEnv({ ...vars, MCP_AUTHORIZATION: 'ApiKey dev-alice-key' }),
    });
    const done = finished(child);
    const lines: Line[] = [];
    let pending = '';
    let cancelled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (
        let end = pending.indexOf('\n');
        end >= 0;
        end = pending.indexOf('\n')
      ) {
        const message = JSON.parse(pending.slice(0, end)) as Line;
        pending = pending.slice(end + 1);
        lines.push(message);
        if (message.params?.progressToken === 'import' && !cancelled) {
          cancelled = true;
          child.stdin.write(
            line({
              jsonrpc: '2.0',
              method: 'notifications/cancelled',
              params: { requestId: 1, reason: 'the user gave up' },
            }),
          );
          // Once the cancellation is in: what the database holds now.
          setTimeout(() => {
            child.stdin.end(
              line({
                jsonrpc: '2.0',
                id: 2,
                method: 'tools/call',
                params: { name: 'orders_list', arguments: { limit: 100 } },
              }),
            );
          }, 500);
        }
      }
    });
    const orders = Array.from({ length: 1000 }, (_, index) => ({
      name: `imported ${index}`,
      amount: 1,
    }));
    child.stdin.write(
      line({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'orders_import',
          arguments: { orders },
          _meta: { progressToken: 'import' },
        },
      }),
    );
    const run = await done;
    expect(run.code).toBe(0);
    const progress = lines
      .filter((each) => each.method === 'notifications/progress')
      .map((each) => each.params?.progress ?? 0);
    expect(progress.length).toBeGreaterThan(0);
    // Stopped well before the end.
    expect(Math.max(...progress)).toBeLessThan(1000);
    expect(lines.some((each) => each.id === 1)).toBe(false);
    const list = lines.find((each) => each.id === 2);
    expect(list?.result?.isError).toBeUndefined();
    expect(list?.result?.structuredContent?.items).toEqual([]);
  }, 60_000);
});
