// The Nest pieces the benchmark apps share: the input DTO (class-validator),
// the API-key guard (the same class for the plain route, this library and
// @rekog/mcp-nest), and the bootstrap that times NestFactory.create + listen.
// Decorators are applied by hand so that the files run with plain `node`.
require('reflect-metadata');
const { performance } = require('node:perf_hooks');
const { Injectable, UnauthorizedException } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} = require('class-validator');
const { AUTHORIZATION, reportReady } = require('./common.cjs');

/** Applies property decorators (and `design:type`) as tsc would. */
function decorateProperties(type, properties) {
  for (const [key, [designType, ...decorators]] of Object.entries(properties)) {
    Reflect.decorate(
      [...decorators, Reflect.metadata('design:type', designType)],
      type.prototype,
      key,
    );
  }
  return type;
}

/** `{ category: string (1..50), limit: integer 1..10, cursor?: string }`. */
class ListItemsDto {}
decorateProperties(ListItemsDto, {
  category: [String, IsString(), IsNotEmpty(), MaxLength(50)],
  limit: [Number, IsInt(), Min(1), Max(10)],
  cursor: [String, IsOptional(), IsString(), MaxLength(100)],
});

/**
 * Lets a call through only with `Authorization: ApiKey bench-key`, and makes
 * its `request.user` the bench principal. HTTP context for the plain route and
 * this library; the RPC context's raw request for @rekog/mcp-nest.
 */
class ApiKeyGuard {
  canActivate(context) {
    const request =
      context.getType() === 'rpc'
        ? context.switchToRpc().getContext().getRawRequest()
        : context.switchToHttp().getRequest();
    if (request?.headers?.authorization !== AUTHORIZATION) {
      throw new UnauthorizedException('A valid API key is required.');
    }
    request.user = { id: 'bench', permissions: ['items.read'] };
    return true;
  }
}
Reflect.decorate([Injectable()], ApiKeyGuard);

/**
 * Creates the app (errors logged only), lets `prepare` finish it, listens on
 * 127.0.0.1 and an ephemeral port, and reports to the harness with the time
 * NestFactory.create to listening took (`bootMs`) and `extra`.
 */
async function bootNest(
  module,
  { prepare = () => undefined, extra = {} } = {},
) {
  const started = performance.now();
  const app = await NestFactory.create(module, { logger: ['error'] });
  await prepare(app);
  await app.listen(0, '127.0.0.1');
  const bootMs = performance.now() - started;
  reportReady(app.getHttpServer().address().port, { bootMs, ...extra });
  return app;
}

module.exports = {
  ApiKeyGuard,
  ListItemsDto,
  bootNest,
  decorateProperties,
};
