// This library's benchmark app: `McpModule.forRoot()`, `items.list` as an
// `@Operation` method (tool `items_list`), the API-key guard as APP_GUARD.
// BENCH_OPS=n adds n - 1 generated operations with a DTO class each
// (BENCH_SHARED=1: all with one input and one output DTO class);
// BENCH_I18N=<dir> imports nestjs-i18n with the catalogue in <dir>
// (en-US, zh-CN; `Accept-Language` picks); BENCH_PER_CALLER=1 turns on
// the tool list per caller (the API-key guard as `authGuard`), BENCH_AUTH_GUARD=1
// the same `authGuard` with the whole list for everyone; BENCH_AUDIT=1 an audit
// sink that drops every event (see otel-mode.cjs). Served over HTTP by
// nestops-http.cjs and over stdio by nestops-stdio.cjs.
const { performance } = require('node:perf_hooks');
const { Injectable, Module } = require('@nestjs/common');
const { APP_GUARD } = require('@nestjs/core');
const { McpModule } = require('@nestops/mcp');
const { Operation } = require('@nestops/operations');
const { listItems } = require('./common.cjs');
const { ApiKeyGuard, ListItemsDto } = require('./nest-common.cjs');
const { generatedProviders } = require('./many-operations.cjs');

const OPS = Number(process.env.BENCH_OPS ?? 1);
const I18N = process.env.BENCH_I18N;

class ItemsOperations {
  list(input) {
    return listItems(input.limit);
  }
}
Reflect.decorate(
  [Operation({ id: 'items.list', input: ListItemsDto, readOnly: true })],
  ItemsOperations.prototype,
  'list',
  Object.getOwnPropertyDescriptor(ItemsOperations.prototype, 'list'),
);
Reflect.decorate([Injectable()], ItemsOperations);

const definedAt = performance.now();
const generated = generatedProviders(OPS, {
  shared: process.env.BENCH_SHARED === '1',
});
const generatedMs = performance.now() - definedAt;

function i18nImports() {
  if (!I18N) return [];
  const { AcceptLanguageResolver, I18nModule } = require('nestjs-i18n');
  return [
    I18nModule.forRoot({
      fallbackLanguage: 'en-US',
      loaderOptions: { path: I18N, watch: false },
      resolvers: [AcceptLanguageResolver],
    }),
  ];
}

class LibraryModule {}
Reflect.decorate(
  [
    Module({
      imports: [
        ...i18nImports(),
        McpModule.forRoot({
          serverName: 'bench',
          ...(process.env.BENCH_AUDIT === '1'
            ? { telemetry: { audit: { record() {} } } }
            : {}),
          ...(process.env.BENCH_PER_CALLER === '1'
            ? { toolListPerCaller: true, authGuard: ApiKeyGuard }
            : process.env.BENCH_AUTH_GUARD === '1'
              ? { authGuard: ApiKeyGuard }
              : {}),
        }),
      ],
      providers: [
        ItemsOperations,
        ...generated,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    }),
  ],
  LibraryModule,
);

module.exports = { LibraryModule, operations: OPS, generatedMs };
