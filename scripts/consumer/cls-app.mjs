// An ES module app, as Nest 12's starter makes them, on the nestjs-cls the
// consumer test installed (7 or 6.3): its ClsModule's middleware puts the
// caller's X-Request-Id in the CLS store, and the tool reads it back inside
// the call. CLS_COPY=require takes nestjs-cls's CommonJS copy (a CommonJS
// app's); otherwise the copy `import` gives (on 7, its ES module build,
// beside the CommonJS one the library requires). Prints the tool's answer.
// Decorators applied by hand so that it runs with `node`.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRequire } from 'node:module';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';

const { ClsModule, ClsServiceManager } =
  process.env.CLS_COPY === 'require'
    ? createRequire(import.meta.url)('nestjs-cls')
    : await import('nestjs-cls');

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
