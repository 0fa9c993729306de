import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../../examples/quick-start/src/app.module';
import { setupApp } from '../../examples/quick-start/src/app.setup';
import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * The quick start as `npm run quick-start` serves it (examples/quick-start,
 * its own setup): the quick-start page's curls get the answers the page shows.
 */

const PAGE = readFileSync(
  join(__dirname, '../..', 'docs/get-started/quick-start.md'),
  'utf8',
);

describe('the quick start page (docs/get-started/quick-start.md)', () => {
  const running = useApp(() =>
    startApp(AppModule, { setup: (app) => setupApp(app) }),
  );

  const post = (message: object, headers: Record<string, string> = {}) =>
    mcpHttp(running().baseUrl).post(message, headers);

  it('answers its three curls as the page shows', async () => {
    const list = await post(rpcRequest(1, 'tools/list'));
    const listed = list
      .json<{ result: { tools: Record<string, unknown>[] } }>()
      .result.tools.map(({ name, title, description }) =>
        JSON.stringify({ name, title, description }),
      );
    const alice = await post(
      rpcRequest(2, 'tools/call', {
        name: 'notes_create',
        arguments: { text: 'Buy milk' },
      }),
      { authorization: 'Bearer alice-token' },
    );
    const bob = await post(
      rpcRequest(3, 'tools/call', {
        name: 'notes_create',
        arguments: { text: 'Sell milk' },
      }),
      { authorization: 'Bearer bob-token' },
    );

    for (const line of [...listed, alice.text, bob.text]) {
      expect(PAGE).toContain(`\n${line}\n`);
    }
    expect(alice.text).toContain('"author":"alice"');
    expect(bob.text).toContain('SECURITY_DENIED_004');
  });

  it('is started by npm run quick-start', () => {
    const scripts = (
      JSON.parse(
        readFileSync(join(__dirname, '../..', 'package.json'), 'utf8'),
      ) as { scripts: Record<string, string> }
    ).scripts;

    expect(scripts['quick-start']).toBe('node dist/quick-start/main.js');
    expect(scripts['prequick-start']).toBe('npm run build:quick-start');
    expect(PAGE).toContain('npm run quick-start');
  });
});
