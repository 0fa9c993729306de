import {
  type CanActivate,
  Injectable,
  type INestApplication,
  Module,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Operation } from '@nestops/operations';
import { McpModule } from '../../mcp.module.js';

/**
 * The HTTP transport's own rules, in front of the JSON-RPC layer, on a real
 * Nest app listening on a free port: the one method served, the origin,
 * the media type, credentials, the body limit and the readiness.
 */
@Injectable()
class TransportSpecOperations {
  @Operation({ id: 'spec.ping', description: 'Answers pong.', input: null })
  ping(): { pong: true } {
    return { pong: true };
  }
}

/** Lets every caller in: credentials are the transport's concern here. */
@Injectable()
class TransportSpecGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'transport-spec',
      maxBodySize: 2_048,
      allowedOrigins: ['https://allowed.example'],
      requireToken: { scheme: 'Bearer' },
      authGuard: TransportSpecGuard,
    }),
  ],
  providers: [TransportSpecOperations],
})
class TransportSpecModule {}

let app: INestApplication;
let url: string;
beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [TransportSpecModule],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  url = `${await app.getUrl()}/mcp`;
});
afterAll(() => app?.close());

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const GOOD = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: 'Bearer t',
};

async function post(headers: Record<string, string>, body = PING) {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, response, text: await response.text() };
}

describe('McpHttpTransport', () => {
  it('answers a good POST through the JSON-RPC layer', async () => {
    const { status, text } = await post(GOOD);
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('serves only POST: 405 with Allow: POST', async () => {
    const response = await fetch(url, { headers: GOOD });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('refuses an origin not allowed, 403, and serves an allowed one', async () => {
    expect(
      (await post({ ...GOOD, origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect(
      (await post({ ...GOOD, origin: 'https://allowed.example' })).status,
    ).toBe(200);
  });

  it('refuses a body that is not JSON, 415', async () => {
    expect((await post({ ...GOOD, 'content-type': 'text/plain' })).status).toBe(
      415,
    );
  });

  it('asks for credentials, 401 with a challenge, under requireToken', async () => {
    const anonymous: Record<string, string> = { ...GOOD };
    delete anonymous.authorization;
    const { status, response } = await post(anonymous);
    expect(status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="transport-spec"',
    );
  });

  it('refuses a body over maxBodySize, 413, and closes the connection', async () => {
    const { status, response } = await post(
      GOOD,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'ping',
        pad: 'x'.repeat(4_096),
      }),
    );
    expect(status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('answers malformed JSON 400 with -32700', async () => {
    const { status, text } = await post(GOOD, '{"jsonrpc":');
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32700 } });
  });
});
