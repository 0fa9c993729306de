// How a call reaches its transaction: CLS (nestjs-cls + @nestjs-cls/transactional,
// what @nestops/typeorm uses) against a request-scoped EntityManager provider
// (the fallback: every service that needs it becomes request-scoped and is
// built again for each call). Both run the same calls in-process on a fresh
// SQLite file: a transaction, then three services deep, one INSERT. The
// scenarios run interleaved, round after round, and are reported as ratios.
// Run with `npm run bench` (or `node bench/unit-of-work.mjs`).
import 'reflect-metadata';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import {
  ContextIdFactory,
  ModuleRef,
  NestFactory,
  REQUEST,
} from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import {
  ClsPluginTransactional,
  TransactionHost,
} from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule, ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { runInterleaved } from './interleaved.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const MANAGER = Symbol('call manager');
const require = createRequire(import.meta.url);

/** A class provider of `scope` whose constructor takes `tokens`. */
function provider(scope, tokens, body) {
  const type = class {
    constructor(...deps) {
      this.deps = deps;
    }
    run() {
      return body(...this.deps);
    }
  };
  tokens.forEach((token, index) => Inject(token)(type, undefined, index));
  Injectable({ scope })(type);
  return type;
}

/** Three services deep, the last one writing through what it was given; top first. */
function chain(scope, writerToken, write) {
  const repo = provider(scope, [writerToken], write);
  const domain = provider(scope, [repo], (r) => r.run());
  return [provider(scope, [domain], (d) => d.run()), domain, repo];
}

const insert = (manager) =>
  manager.query('INSERT INTO bench (value) VALUES (1)');
const clsChain = chain(Scope.DEFAULT, TransactionHost, (host) =>
  insert(host.tx),
);
const scopedChain = chain(Scope.REQUEST, MANAGER, (manager) => insert(manager));
const [ClsTop] = clsChain;
const [ScopedTop] = scopedChain;

const driver = require(
  Number(process.versions.node.split('.')[0]) >= 22
    ? 'better-sqlite3-napi'
    : 'better-sqlite3',
);
class BenchModule {}
Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'better-sqlite3',
      database: join(mkdtempSync(join(tmpdir(), 'bench-uow-')), 'b.sqlite'),
      driver,
    }),
    ClsModule.forRoot({
      global: true,
      plugins: [
        new ClsPluginTransactional({
          adapter: new TransactionalAdapterTypeOrm({
            dataSourceToken: getDataSourceToken(),
          }),
        }),
      ],
    }),
  ],
  providers: [
    ...clsChain,
    ...scopedChain,
    {
      provide: MANAGER,
      scope: Scope.REQUEST,
      inject: [REQUEST],
      useFactory: (request) => request.manager,
    },
  ],
})(BenchModule);

const app = await NestFactory.createApplicationContext(BenchModule, {
  logger: ['error'],
});
const dataSource = app.get(DataSource);
await dataSource.query('CREATE TABLE bench (value integer)');
const cls = app.get(ClsService);
const txHost = app.get(TransactionHost);
const moduleRef = app.get(ModuleRef);
const clsTop = app.get(ClsTop);

const scenarios = {
  'CLS (nestjs-cls)': () =>
    cls.run({ ifNested: 'override' }, () =>
      txHost.withTransaction(() => clsTop.run()),
    ),
  'request-scoped provider': () =>
    dataSource.transaction(async (manager) => {
      const contextId = ContextIdFactory.create();
      moduleRef.registerRequestByContextId({ manager }, contextId);
      const top = await moduleRef.resolve(ScopedTop, contextId, {
        strict: false,
      });
      return top.run();
    }),
};

async function measure(run) {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await run();
  return (CALLS / (performance.now() - start)) * 1000;
}

await runInterleaved({
  scenarios,
  measure,
  rounds: ROUNDS,
  heading: `${ROUNDS} rounds x ${CALLS} calls (transaction + 3 services + INSERT), one at a time; median per scenario`,
  baseline: 'request-scoped provider',
  label: 'request-scoped',
});
await app.close();
