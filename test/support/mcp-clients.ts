import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export { ClientV1, ClientV2 };

/** Who calls, and for which tenant: sent as HTTP headers on every POST. */
export interface Caller {
  /** An API key of the sample (`dev-bob-key`, `dev-alice-key`); anonymous when absent. */
  readonly apiKey?: string;
  /** Sent as `X-Tenant-Id`; the app's default tenant when absent. */
  readonly tenant?: string;
  /** Sent as `Accept-Language`. */
  readonly language?: string;
}

export const CLIENT_INFO = { name: 'sample-app-e2e', version: '1.0.0' };

/** What a client answers the server's questions with. */
export interface ClientAnswers {
  /**
   * Its answer to each `elicitation/create` (a confirmation, a form); the
   * client declares the `elicitation` capability only when it is given.
   */
  readonly elicit?: (params: Record<string, unknown>) => object;
  /** Its model's answer to each `sampling/createMessage`; declares `sampling`. */
  readonly sample?: (params: Record<string, unknown>) => object;
}

/**
 * Accepts every elicitation (the user confirms each `orders_delete`) and
 * samples with a fixed answer.
 */
export const ACCEPT_ALL: ClientAnswers = {
  elicit: () => ({ action: 'accept' }),
  sample: () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A fine product.' },
    model: 'e2e-model',
  }),
};

function optionsOf(answers: ClientAnswers) {
  return {
    capabilities: {
      ...(answers.elicit ? { elicitation: {} } : {}),
      ...(answers.sample ? { sampling: {} } : {}),
    },
  };
}

export function callerHeaders(caller: Caller = {}): Record<string, string> {
  return {
    ...(caller.apiKey ? { Authorization: `ApiKey ${caller.apiKey}` } : {}),
    ...(caller.tenant ? { 'X-Tenant-Id': caller.tenant } : {}),
    ...(caller.language ? { 'Accept-Language': caller.language } : {}),
  };
}

function mcpUrl(baseUrl: string): URL {
  return new URL('/mcp', baseUrl);
}

/**
 * Keeps every client it connects, so a test file closes them all in its
 * `afterAll`.
 */
export class McpClients {
  private readonly open: Array<{ close(): Promise<void> }> = [];

  constructor(private readonly baseUrl: string) {}

  /** SDK v1: `Client` + `StreamableHTTPClientTransport`, connected (initialized). */
  async v1(
    caller: Caller = {},
    answers: ClientAnswers = {},
  ): Promise<ClientV1> {
    const client = new ClientV1(CLIENT_INFO, optionsOf(answers));
    const { elicit, sample } = answers;
    if (elicit) {
      client.setRequestHandler(
        ElicitRequestSchema,
        (request) => elicit(request.params) as never,
      );
    }
    if (sample) {
      client.setRequestHandler(
        CreateMessageRequestSchema,
        (request) => sample(request.params) as never,
      );
    }
    const transport = new TransportV1(mcpUrl(this.baseUrl), {
      requestInit: { headers: callerHeaders(caller) },
    });
    await client.connect(transport);
    this.open.push(client);
    return client;
  }

  /** SDK v2 (`@modelcontextprotocol/client`), connected (initialized). */
  async v2(
    caller: Caller = {},
    answers: ClientAnswers = {},
  ): Promise<ClientV2> {
    const client = new ClientV2(CLIENT_INFO, optionsOf(answers));
    const { elicit, sample } = answers;
    if (elicit) {
      client.setRequestHandler(
        'elicitation/create',
        (request) => elicit(request.params) as never,
      );
    }
    if (sample) {
      client.setRequestHandler(
        'sampling/createMessage',
        (request) => sample(request.params) as never,
      );
    }
    const transport = new TransportV2(mcpUrl(this.baseUrl), {
      requestInit: { headers: callerHeaders(caller) },
    });
    await client.connect(transport);
    this.open.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    const clients = this.open.splice(0);
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** The parts of a `tools/call` result the tests look at. */
export interface ToolOutcome {
  readonly isError: boolean;
  /** `content[0].text`. */
  readonly text: string;
  readonly structuredContent?: Record<string, unknown>;
  readonly contentCount: number;
}

interface RawToolResult {
  readonly [key: string]: unknown;
  readonly content?: unknown;
  readonly isError?: unknown;
  readonly structuredContent?: unknown;
}

/** Calls a tool with the v1 client and reduces the answer to a `ToolOutcome`. */
export async function callTool(
  client: ClientV1,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolOutcome> {
  const result: RawToolResult = await client.callTool({
    name,
    arguments: args,
  });
  const content = Array.isArray(result.content) ? result.content : [];
  const first: unknown = content[0];
  if (
    typeof first !== 'object' ||
    first === null ||
    (first as { type?: unknown }).type !== 'text' ||
    typeof (first as { text?: unknown }).text !== 'string'
  ) {
    throw new Error(
      `Tool ${name} answered without a text content block: ${JSON.stringify(result)}`,
    );
  }
  const structured = result.structuredContent;
  return {
    isError: result.isError === true,
    text: (first as { text: string }).text,
    structuredContent:
      typeof structured === 'object' && structured !== null
        ? (structured as Record<string, unknown>)
        : undefined,
    contentCount: content.length,
  };
}

/** Ajv for JSON Schema 2020-12 in strict mode, with the standard formats. */
export function createStrictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}
