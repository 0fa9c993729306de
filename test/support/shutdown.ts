import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type McpReply, sendExact } from './mcp-http';

/** GET /ready on a connection of its own. */
export function readiness(baseUrl: string): Promise<McpReply> {
  return sendExact(baseUrl, {
    method: 'GET',
    path: '/ready',
    headers: {},
    agent: new Agent({ keepAlive: false }),
  });
}

/** Resolves once `condition()` holds; throws after `timeout` ms. */
export async function until(
  condition: () => boolean,
  timeout = 5_000,
): Promise<void> {
  const deadline = performance.now() + timeout;
  while (!condition()) {
    if (performance.now() > deadline) {
      throw new Error('Timed out waiting.');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
