import type { AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import express from 'express';
import { type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJsonText } from './http-problem.js';
import { type HttpRoute, serveRoutes, targetPath } from './http-routes.js';

/** What a request got: its status and body, or the error that ended it. */
type Outcome =
  | { readonly status: number; readonly body: string }
  | { readonly error: string };

function send(port: number, method: string, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('error', (error) => resolve({ error: error.message }));
    req.end();
  });
}

const text = (body: string): HttpRoute['serve'] => {
  return (_req, res) => sendJsonText(res, 200, body);
};

/** A readiness route, metadata with its preflight, and an endpoint, as the transport registers them, plus two that fail. */
const ROUTES: readonly HttpRoute[] = [
  { method: 'GET', path: '/meta', serve: text('"meta"') },
  {
    method: 'OPTIONS',
    path: '/meta',
    serve: (_req, res) => void res.writeHead(204).end(),
  },
  { method: 'GET', path: '/ready', serve: text('"ready"') },
  { method: 'POST', path: '/mcp', serve: text('"posted"') },
  {
    method: 'OTHER',
    path: '/mcp',
    serve: (_req, res) => void res.writeHead(405, { Allow: 'POST' }).end(),
  },
  {
    method: 'POST',
    path: '/fails',
    serve: () => Promise.reject(new Error('the store is down')),
  },
  {
    method: 'POST',
    path: '/fails-late',
    serve: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"partial":');
      throw new Error('the stream broke');
    },
  },
];

const ADAPTERS: ReadonlyArray<readonly [string, () => AbstractHttpAdapter]> = [
  ['express', () => new ExpressAdapter(express())],
  ['fastify', () => new FastifyAdapter()],
];

describe.each(ADAPTERS)('serveRoutes on %s', (name, createAdapter) => {
  const errors: unknown[][] = [];
  let adapter: AbstractHttpAdapter;
  let port: number;

  beforeAll(async () => {
    adapter = createAdapter();
    adapter.initHttpServer({});
    serveRoutes(adapter, ROUTES, { error: (...args) => errors.push(args) });
    if (name === 'fastify') {
      await (adapter as FastifyAdapter).getInstance().ready();
    }
    const server = adapter.getHttpServer() as Server;
    await new Promise<void>((listening) =>
      server.listen(0, '127.0.0.1', listening),
    );
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => adapter?.close());

  beforeEach(() => {
    errors.length = 0;
  });

  it.each([
    ['GET', '/ready', 200, '"ready"'],
    ['GET', '/meta', 200, '"meta"'],
    ['OPTIONS', '/meta', 204, ''],
    ['POST', '/mcp', 200, '"posted"'],
  ])('serves %s %s with its route', async (method, path, status, body) => {
    expect(await send(port, method, path)).toEqual({ status, body });
  });

  it.each(['/ready', '/meta'])(
    'answers HEAD at the GET route %s',
    async (path) => {
      expect(await send(port, 'HEAD', path)).toEqual({ status: 200, body: '' });
    },
  );

  it.each([
    ['POST', '/mcp/'],
    ['POST', '/MCP'],
    ['GET', '/Ready'],
    ['GET', '/meta/'],
  ])(
    'takes each path exactly: %s %s is not routed (404)',
    async (method, path) => {
      expect(await send(port, method, path)).toMatchObject({ status: 404 });
    },
  );

  it('takes a path with a query', async () => {
    expect(await send(port, 'POST', '/mcp?x=/mcp/')).toEqual({
      status: 200,
      body: '"posted"',
    });
  });

  it('serves no other method at the path of an OPTIONS route', async () => {
    for (const method of ['POST', 'DELETE']) {
      expect(await send(port, method, '/meta')).toMatchObject({ status: 404 });
    }
  });

  it('gives OTHER every method its path has no route for, whatever other paths have', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']) {
      expect(await send(port, method, '/mcp')).toMatchObject({ status: 405 });
    }
  });

  if (name === 'fastify') {
    it('answers a request whose serving rejects before any byte 500, and logs it with its stack', async () => {
      const outcome = await send(port, 'POST', '/fails');

      expect(outcome).toMatchObject({ status: 500 });
      expect(JSON.parse((outcome as { body: string }).body)).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'The request could not be served.',
      });
      expect(errors).toHaveLength(1);
      const [message, stack] = errors[0] as [string, string];
      expect(message).toBe('An MCP HTTP request could not be served');
      expect(stack).toMatch(/^Error: the store is down\n\s+at /);
    });

    it('ends the connection of a request whose serving throws once its answer has begun, and logs it', async () => {
      const outcome = await send(port, 'POST', '/fails-late');

      expect(outcome).toHaveProperty('error');
      expect(errors).toHaveLength(1);
      expect(errors[0][1]).toMatch(/^Error: the stream broke\n/);
      expect(await send(port, 'GET', '/ready')).toMatchObject({
        status: 200,
      });
    });
  } else {
    it('hands a failure to the app, Express, and logs nothing itself', async () => {
      expect(await send(port, 'POST', '/fails')).toMatchObject({
        status: 500,
      });
      expect(await send(port, 'POST', '/fails-late')).toHaveProperty('error');
      expect(errors).toEqual([]);
    });
  }
});

describe('targetPath', () => {
  it.each([
    ['/mcp', '/mcp'],
    ['/mcp?x=1', '/mcp'],
    ['/mcp/?x=/mcp', '/mcp/'],
    ['', ''],
  ])('%j: %j', (url, path) => {
    expect(targetPath({ url } as IncomingMessage)).toBe(path);
  });
});
