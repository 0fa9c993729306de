import type { LoggerService } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendProblem } from './http-problem.js';
import type { BodyRequest, Next } from './request-body.reader.js';

/**
 * Serves one request: every HTTP rule works on the Node request and
 * response; `appRequest` and `appResponse` are the same exchange as the
 * app's own routes see it (Express's are the Node objects themselves,
 * Fastify's wrap them), for the app's guards and each call's request.
 */
export type RouteServe = (
  req: BodyRequest,
  res: ServerResponse,
  appRequest: object,
  appResponse: object,
) => void | Promise<void>;

/** A route of the endpoint; `OTHER`: every method not routed at its path. */
export interface HttpRoute {
  readonly method: 'GET' | 'POST' | 'OPTIONS' | 'OTHER';
  readonly path: string;
  readonly serve: RouteServe;
}

type ExpressHandler = (
  req: BodyRequest,
  res: ServerResponse,
  next: Next,
) => void;

/** The Express application, as far as the endpoint uses it. */
export interface ExpressLike {
  post(path: string, handler: ExpressHandler): void;
  get(path: string, handler: ExpressHandler): void;
  options(path: string, handler: ExpressHandler): void;
  all(path: string, handler: ExpressHandler): void;
}

interface FastifyRequestLike {
  readonly raw: BodyRequest;
}

interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/** The Fastify instance, as far as the endpoint uses it. */
interface FastifyLike {
  readonly supportedMethods: readonly string[];
  route(options: {
    method: string | string[];
    url: string;
    exposeHeadRoute: boolean;
    preParsing: (
      request: FastifyRequestLike,
      reply: FastifyReplyLike,
      payload: unknown,
      done: () => void,
    ) => void;
    handler: () => void;
  }): unknown;
}

/** The HTTP adapters the endpoint serves on, by `getType()`. */
export const HTTP_ADAPTER_TYPES = ['express', 'fastify'] as const;

/**
 * Registers `routes` on the app's HTTP instance, in their order, when Nest
 * registers the app's own (`onModuleInit`, after its controllers). On
 * Fastify each route is served from its own `preParsing` hook: after every
 * `onRequest` hook (the app's middleware, CORS), and before Fastify looks
 * at the body (its Content-Type check, its parsers and `bodyLimit`), which
 * the endpoint reads from the stream itself; the reply is hijacked, so
 * Fastify's own handling of it ends there, and a request whose serving
 * throws is logged to `logger` and answered here (see `failed`); on
 * Express, the error goes to the app's error handler. Each route takes its
 * path exactly, as Fastify's router does by default: on Express, whose
 * router also takes `/mcp/` and `/MCP` for `/mcp`, those go on to the
 * app's routes (its `404`).
 */
export function serveRoutes(
  adapter: AbstractHttpAdapter,
  routes: readonly HttpRoute[],
  logger: Pick<LoggerService, 'error'>,
): void {
  if (adapter.getType() === 'fastify') {
    const fastify = adapter.getInstance<FastifyLike>();
    for (const route of routes) {
      fastify.route({
        method: methodsOf(route, routes, fastify.supportedMethods),
        url: route.path,
        // Fastify adds a HEAD route to a GET route only; `OTHER` names HEAD
        // itself when no GET route at its path takes it.
        exposeHeadRoute: true,
        preParsing: (request, reply, _payload, done) => {
          reply.hijack();
          // Async: a throw in `serve` rejects, as a rejection from it does.
          const serving = async (): Promise<void> =>
            route.serve(request.raw, reply.raw, request, reply);
          serving().catch((error: unknown) => failed(logger, reply.raw, error));
          done();
        },
        handler: () => undefined,
      });
    }
    return;
  }
  const express = adapter.getInstance<ExpressLike>();
  for (const { method, path, serve } of routes) {
    const handler = exactly(path, (req, res, next) => {
      Promise.resolve(serve(req, res, req, res)).catch(next);
    });
    switch (method) {
      case 'GET':
        express.get(path, handler);
        break;
      case 'POST':
        express.post(path, handler);
        break;
      case 'OPTIONS':
        express.options(path, handler);
        break;
      case 'OTHER':
        express.all(path, handler);
    }
  }
}

/**
 * An Express handler for `path` that passes every request whose target is
 * another spelling of it (a trailing slash, other letter case) on.
 */
export function exactly(path: string, handler: ExpressHandler): ExpressHandler {
  return (req, res, next) =>
    targetPath(req) === path ? handler(req, res, next) : next();
}

/**
 * A Fastify route's methods: `OTHER` is every one the instance has that no
 * route at its path names. No GET route shares its path (the options
 * refuse a readiness path equal to the endpoint's, and the metadata paths
 * are under `/.well-known/`), so HEAD is among them.
 */
function methodsOf(
  route: HttpRoute,
  routes: readonly HttpRoute[],
  supported: readonly string[],
): string | string[] {
  if (route.method !== 'OTHER') {
    return route.method;
  }
  const taken = new Set<string>(
    routes
      .filter((each) => each.path === route.path)
      .map((each) => each.method),
  );
  return supported.filter((method) => !taken.has(method));
}

/**
 * A request whose serving threw, on Fastify (which hands no error on once
 * its reply is hijacked): logged, and answered `500` when nothing has been
 * sent yet, else its connection is ended.
 */
function failed(
  logger: Pick<LoggerService, 'error'>,
  res: ServerResponse,
  error: unknown,
): void {
  logger.error(
    'An MCP HTTP request could not be served',
    error instanceof Error ? error.stack : String(error),
  );
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendProblem(
    res,
    500,
    'Internal Server Error',
    'The request could not be served.',
  );
}

/** The path of a request's target (origin form), without its query. */
export function targetPath(req: IncomingMessage): string {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
