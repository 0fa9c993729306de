import type { INestApplicationContext } from '@nestjs/common';
import type { TestHeaders } from '@nestops/operations/testing';
import { carrierHeaders } from '@nestops/operations/internal';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from '../protocol/mcp-caller.context.js';
import { McpProtocol } from '../protocol/mcp-protocol.js';
import { listPrincipalOf } from '../auth/outer-authenticator.js';
import { resultValue } from '../protocol/answer-text.js';
import type { McpTool, McpToolResult } from '../tools/mcp-tool.interface.js';
import type { McpPromptEntry } from '../prompts/mcp-prompt.catalogue.js';
import type { PromptMessage } from '../prompts/prompt-messages.js';
import type {
  McpResource,
  McpReadContents,
  McpResourceTemplate,
} from '../resources/mcp-resource.interface.js';

/**
 * Talks MCP to an initialised Nest application in-process: each message goes
 * through the same protocol layer, tool catalogue and pipeline as one posted to
 * the HTTP endpoint, with the headers you choose, but without HTTP (so the
 * endpoint's own checks, such as the `401` for invalid credentials, are not
 * applied: the call's guards judge the credentials instead). Under
 * `toolListPerCaller`, `listTools()` is the list of the principal that
 * `authGuard` makes of the client's headers, as over HTTP.
 *
 * ```ts
 * const app = moduleRef.createNestApplication();
 * await app.init();
 * const mcp = McpTestClient.create(app, { headers: { Authorization: 'Bearer alice-token' } });
 * const result = await mcp.callTool('notes_create', { text: 'hello' });
 * ```
 *
 * @publicApi
 */
export class McpTestClient {
  private nextId = 1;
  /** The principal of the tool list, asked of `authGuard` on the first message. */
  private principal?: Promise<unknown>;

  private constructor(
    private readonly app: INestApplicationContext,
    private readonly protocol: McpProtocol,
    private readonly headers: McpCallerContext['headers'],
  ) {}

  /**
   * A client for `app`: a `TestingModule` or an application, after `init()`.
   * `options.headers` are sent with every message.
   */
  static create(
    app: INestApplicationContext,
    options: { readonly headers?: TestHeaders } = {},
  ): McpTestClient {
    let protocol: McpProtocol;
    try {
      protocol = app.get(McpProtocol, { strict: false });
    } catch {
      throw new Error(
        'McpModule is not in this application: import McpModule.forRoot() into it.',
      );
    }
    return new McpTestClient(app, protocol, carrierHeaders(options.headers));
  }

  /** A client whose messages also send `headers` (they win over this client's). */
  withHeaders(headers: TestHeaders): McpTestClient {
    return new McpTestClient(
      this.app,
      this.protocol,
      carrierHeaders(this.headers, headers),
    );
  }

  /** `tools/list`: the tools as an MCP client sees them. */
  async listTools(): Promise<readonly McpTool[]> {
    return (await this.request<{ tools: readonly McpTool[] }>('tools/list'))
      .tools;
  }

  /**
   * `tools/call`: the tool's result. An operation failure is a result with
   * `isError: true` and the text `<CODE>: <message>`; a malformed call (an
   * unknown tool, arguments that are not an object) throws `McpProtocolError`.
   */
  callTool(
    name: string,
    args?: Readonly<Record<string, unknown>>,
  ): Promise<McpToolResult> {
    return this.request<McpToolResult>('tools/call', {
      name,
      ...(args === undefined ? {} : { arguments: args }),
    });
  }

  /** `prompts/list`: the prompts as an MCP client sees them. */
  async listPrompts(): Promise<readonly McpPromptEntry[]> {
    return (
      await this.request<{ prompts: readonly McpPromptEntry[] }>('prompts/list')
    ).prompts;
  }

  /**
   * `prompts/get`: the prompt's messages. An unknown prompt, one the
   * caller may not use and invalid arguments throw `McpProtocolError`
   * (`-32602`).
   */
  getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
  ): Promise<{ description?: string; messages: PromptMessage[] }> {
    return this.request('prompts/get', {
      name,
      ...(args === undefined ? {} : { arguments: args }),
    });
  }

  /**
   * `completion/complete` of the argument `argument` of a prompt
   * (`{ type: 'ref/prompt', name }`) or a resource template
   * (`{ type: 'ref/resource', uri }`), typed so far as `value`, with the
   * other arguments already given.
   */
  async complete(
    ref:
      | { readonly type: 'ref/prompt'; readonly name: string }
      | { readonly type: 'ref/resource'; readonly uri: string },
    argument: string,
    value: string,
    given?: Readonly<Record<string, string>>,
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    return (
      await this.request<{
        completion: { values: string[]; total?: number; hasMore?: boolean };
      }>('completion/complete', {
        ref,
        argument: { name: argument, value },
        ...(given === undefined ? {} : { context: { arguments: given } }),
      })
    ).completion;
  }

  /** `resources/list`: the resources at fixed URIs, as an MCP client sees them. */
  async listResources(): Promise<readonly McpResource[]> {
    return (
      await this.request<{ resources: readonly McpResource[] }>(
        'resources/list',
      )
    ).resources;
  }

  /** `resources/templates/list`: the resource templates, as an MCP client sees them. */
  async listResourceTemplates(): Promise<readonly McpResourceTemplate[]> {
    return (
      await this.request<{
        resourceTemplates: readonly McpResourceTemplate[];
      }>('resources/templates/list')
    ).resourceTemplates;
  }

  /**
   * `resources/read`: the contents read at `uri`. A URI the caller cannot
   * read throws `McpProtocolError` (`-32002`, `PROTOCOLS_NOTFOUND_003`), as
   * does a failed read (its failure's code).
   */
  async readResource(uri: string): Promise<readonly McpReadContents[]> {
    return (
      await this.request<{ contents: readonly McpReadContents[] }>(
        'resources/read',
        { uri },
      )
    ).contents;
  }

  /**
   * Sends one JSON-RPC request and returns its `result`; a JSON-RPC error
   * answer throws `McpProtocolError` with its `rpcCode` and catalogue `code`.
   */
  async request<T = unknown>(
    method: string,
    params?: Readonly<Record<string, unknown>>,
  ): Promise<T> {
    const response = await this.send({
      jsonrpc: '2.0',
      id: this.nextId++,
      method,
      ...(params === undefined ? {} : { params }),
    });
    if (!response) {
      throw new Error(`No answer to the request '${method}'.`);
    }
    if ('error' in response) {
      const { code, data, message } = response.error;
      const { fields } = data;
      throw new McpProtocolError(
        code,
        data.code,
        message,
        fields ? { fields } : {},
      );
    }
    return response.result as T;
  }

  /**
   * Sends any message as it would arrive in a POST body, and returns the
   * JSON-RPC answer, or undefined when none is due (notifications).
   */
  async send(message: unknown): Promise<JsonRpcResponse | undefined> {
    const caller = {
      headers: this.headers,
      principal: await (this.principal ??= listPrincipalOf(
        this.app,
        this.headers,
        McpTestClient,
      )),
    };
    const response = await this.protocol.dispatch(message, caller);
    return response && 'result' in response
      ? { ...response, result: resultValue(response.result) }
      : response;
  }
}
