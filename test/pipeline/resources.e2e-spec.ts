import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ContractError } from '@nestops/operations/internal';
import {
  CliOnlyResource,
  ResourceAppModule,
  ResourceOperations,
  UnknownVariableResource,
  WritingResource,
} from '../fixtures/resource-fixtures';
import { startupError } from '../fixtures/startup-fixtures';
import { ClientV1 } from '../support/mcp-clients';
import { startApp, useApp } from '../support/start-app';

/**
 * `resources/read` of operations with the SDK v1 client over HTTP: the URI
 * matched and its variables typed as the input's properties, what is not
 * found for the caller, the failures that are not hidden, text and bytes;
 * and the startup refusals of `@Operation({ resource })`.
 */

const running = useApp(() =>
  startApp(ResourceAppModule.with([ResourceOperations])),
);

let client: ClientV1;

beforeAll(async () => {
  client = new ClientV1({ name: 'resources-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', running().baseUrl)),
  );
});

afterAll(() => client?.close());

async function failure(uri: string) {
  const error = (await client.readResource({ uri }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  return { code: error?.code, message: error?.message, data: error?.data };
}

const notFound = (uri: string) => ({
  code: -32002,
  message: `MCP error -32002: Resource not found: ${JSON.stringify(uri)}.`,
  data: { code: 'PROTOCOLS_NOTFOUND_003', uri },
});

describe('resources/read', () => {
  it('types each variable as its input property: an integer, a boolean and a number', async () => {
    const file = await client.readResource({ uri: 'files://7' });
    expect(file.contents).toEqual([
      { uri: 'files://7', mimeType: 'application/json', text: '{"id":7}' },
    ]);
    const flag = await client.readResource({ uri: 'flags://true/0.5' });
    expect(JSON.parse((flag.contents[0] as { text: string }).text)).toEqual({
      on: true,
      ratio: 0.5,
    });
  });

  it('decodes percent-encoding; a variable takes one path segment', async () => {
    const read = await client.readResource({ uri: 'names://hello%20w%2Frld' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      name: 'hello w/rld',
    });
    expect(await failure('names://a/b')).toEqual(notFound('names://a/b'));
    expect(await failure('names://%E0%A4%A')).toEqual(
      notFound('names://%E0%A4%A'),
    );
  });

  it('a fixed URI wins over a template that also matches it', async () => {
    // files://{id} would take "hidden" as an id and answer not found too, so
    // the fixed text resource shows it.
    const readme = await client.readResource({ uri: 'files://readme' });
    expect(readme.contents).toEqual([
      { uri: 'files://readme', mimeType: 'text/markdown', text: '# Read me' },
    ]);
  });

  it('bytes are a base64 blob with the declared MIME type', async () => {
    const pdf = await client.readResource({ uri: 'files://pdf' });
    expect(pdf.contents).toEqual([
      {
        uri: 'files://pdf',
        mimeType: 'application/pdf',
        blob: Buffer.from('%PDF').toString('base64'),
      },
    ]);
  });

  it('not found, one answer for all: an unknown URI, a variable not of its type, a denied permission or policy, a missing file', async () => {
    for (const uri of [
      'files://nothing/here',
      'unknown://x',
      'files://abc',
      'flags://yes/0.5',
      'files://secret',
      'files://hidden',
      'files://101',
    ]) {
      expect(await failure(uri), uri).toEqual(notFound(uri));
    }
  });

  it('invalid input is -32602 naming the field; another failure is -32000 with its code and text', async () => {
    expect(await failure('files://0')).toEqual({
      code: -32602,
      message: expect.stringMatching(
        /^MCP error -32602: VALIDATION_INVALID_001: .*id/,
      ),
      data: { code: 'VALIDATION_INVALID_001', uri: 'files://0' },
    });
    expect(await failure('files://conflict')).toEqual({
      code: -32000,
      message:
        'MCP error -32000: BUSINESS_CONFLICT_001: The file is being written.',
      data: { code: 'BUSINESS_CONFLICT_001', uri: 'files://conflict' },
    });
  });

  it('a read without a string uri is -32602', async () => {
    const reply = await fetch(`${running().baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: 7 },
      }),
    });
    expect(((await reply.json()) as { error: unknown }).error).toEqual({
      code: -32602,
      message: 'Invalid params: resources/read needs a string "uri".',
      data: { code: 'PROTOCOLS_VALIDATION_001' },
    });
  });

  it('resources/subscribe is -32601: no subscribe capability is declared', async () => {
    expect(client.getServerCapabilities()?.resources).toEqual({
      listChanged: false,
    });
    await expect(
      client.subscribeResource({ uri: 'files://readme' }),
    ).rejects.toMatchObject({ code: -32601 });
  });
});

describe('startup refusals of @Operation({ resource })', () => {
  it('refuses a resource on an operation that writes, naming it', async () => {
    const error = await startupError(ResourceAppModule.with([WritingResource]));

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe(
      "CONTRACT_VALIDATION_002: Operation 'files.create' on WritingResource.create: resource 'files://{id}' is read, so the operation must be read-only (a get or list verb, or readOnly: true).",
    );
  });

  it('refuses a template variable that is not an input property, naming it', async () => {
    const error = await startupError(
      ResourceAppModule.with([UnknownVariableResource]),
    );

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe(
      "CONTRACT_VALIDATION_002: Operation 'files.get' on UnknownVariableResource.get: resource 'files://{path}' names {path}, which is not a property of its input (id).",
    );
  });

  it('refuses a resource on an operation MCP does not publish, naming it', async () => {
    const error = await startupError(ResourceAppModule.with([CliOnlyResource]));

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe(
      "CONTRACT_VALIDATION_002: Operation 'files.list' on CliOnlyResource.list: resource 'files://all' is read over MCP, but the operation is not exposed on MCP; add 'mcp' to its expose option, or remove its resource.",
    );
  });
});
