// An app on the nestjs-cls the consumer test installed (7 or 6.3): its
// ClsModule's middleware puts the caller's X-Request-Id in the CLS store,
// and the tool reads it back inside the call. Prints the tool's answer.
// Plain CommonJS (decorators applied by hand) so that it runs with `node`.
require('reflect-metadata');
const { Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { ClsModule, ClsServiceManager } = require('nestjs-cls');
const { McpModule } = require('@nestops/mcp');
const { Operation } = require('@nestops/operations');

class RequestIds {
  current() {
    return { requestId: ClsServiceManager.getClsService().get('requestId') };
  }
}
Reflect.decorate(
  [
    Operation({
      id: 'ids.current',
      description: 'The request id.',
      input: null,
    }),
  ],
  RequestIds.prototype,
  'current',
  Object.getOwnPropertyDescriptor(RequestIds.prototype, 'current'),
);
Reflect.decorate([Injectable()], RequestIds);

class AppModule {}
Reflect.decorate(
  [
    Module({
      imports: [
        ClsModule.forRoot({
          global: true,
          middleware: {
            mount: true,
            setup: (cls, req) =>
              cls.set('requestId', req.headers['x-request-id']),
          },
        }),
        McpModule.forRoot(),
      ],
      providers: [RequestIds],
    }),
  ],
  AppModule,
);

(async () => {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  const response = await fetch(`${await app.getUrl()}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-request-id': 'req-42',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ids_current', arguments: {} },
    }),
  });
  console.log(await response.text());
  await app.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
