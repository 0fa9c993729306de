import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { CLIENT_INFO } from './mcp-clients';
import { childEnv, REQUEST } from './sample-cli';
import { CLI } from './sample-process';

/** What starts the sample's `mcp` command: its arguments and environment. */
export function command(args: readonly string[], env: Record<string, string>) {
  return {
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: childEnv(env),
    stderr: 'pipe' as const,
  };
}

/** An SDK v1 client of the sample's `mcp` command, connected. */
export async function stdioV1(
  args: readonly string[],
  env: Record<string, string>,
): Promise<ClientV1> {
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(new StdioV1(command(args, env)), REQUEST);
  return client;
}

/** An SDK v2 client of the sample's `mcp` command, connected. */
export async function stdioV2(
  args: readonly string[],
  env: Record<string, string>,
): Promise<ClientV2> {
  const client = new ClientV2(CLIENT_INFO);
  await client.connect(new StdioV2(command(args, env)), REQUEST);
  return client;
}
