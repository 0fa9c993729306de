import { startSampleApp, RunningApp } from './support/sample-app';

describe('smoke', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startSampleApp();
  });
  afterAll(() => running.close());

  it('lists tools', async () => {
    const res = await fetch(`${running.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const body = await res.json();
    expect(body.result.tools.map((t: { name: string }) => t.name)).toContain(
      'orders_create',
    );
  });
});
