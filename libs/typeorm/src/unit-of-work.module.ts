import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import {
  ClsPluginTransactional,
  getTransactionHostToken,
  type TransactionHost,
} from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule, ClsService } from 'nestjs-cls';
import type { DataSource } from 'typeorm';
import { CallScopedTypeOrmAdapter } from './call-scoped.adapter.js';
import { TransactionInterceptor } from './transaction.interceptor.js';
import { COMMITTED_RESULTS } from '@nestops/operations/internal';
import { TypeOrmCommittedResults } from './committed-results.js';

/**
 * Options of `UnitOfWorkModule.forRoot`.
 *
 * @publicApi
 */
export interface UnitOfWorkModuleOptions {
  /**
   * The `name` of the TypeORM data source (as given to
   * `TypeOrmModule.forRoot`), when the app has several. Its
   * `TransactionHost` is then `@InjectTransactionHost(name)`. Default: the
   * default data source, whose `TransactionHost` is injected by class.
   */
  readonly dataSource?: string;
  /**
   * Whether to register `ClsModule.forRoot({ global: true })`. Default
   * true; pass false when the app registers `ClsModule` itself (or when a
   * second data source gets its own `UnitOfWorkModule`).
   */
  readonly registerClsModule?: boolean;
}

/**
 * One transaction per mutating operation call (and per REST request other
 * than GET, HEAD, OPTIONS) on a TypeORM data source, through
 * `@nestjs-cls/transactional`: registers its TypeORM plugin and the global
 * `TransactionInterceptor`. Code reaches the call's transaction with
 * `TransactionHost<TransactionalAdapterTypeOrm>#tx`.
 *
 * ```ts
 * @Module({
 *   imports: [TypeOrmModule.forRoot({ ... }), UnitOfWorkModule.forRoot(), McpModule.forRoot()],
 * })
 * export class AppModule {}
 * ```
 *
 * @publicApi
 */
@Module({})
export class UnitOfWorkModule {
  /**
   * Registers the transactional plugin for one TypeORM data source (the
   * default one unless `dataSource` names another) and the global
   * `TransactionInterceptor`.
   */
  static forRoot(options: UnitOfWorkModuleOptions = {}): DynamicModule {
    const name = options.dataSource;
    const dataSourceToken = getDataSourceToken(name);
    return {
      module: UnitOfWorkModule,
      // Its committed results are what a task engine reads (McpModule's).
      global: true,
      imports: [
        ...(options.registerClsModule === false
          ? []
          : [ClsModule.forRoot({ global: true })]),
        ClsModule.registerPlugins([
          new ClsPluginTransactional({
            connectionName: name,
            adapter: new CallScopedTypeOrmAdapter({ dataSourceToken }),
          }),
        ]),
      ],
      providers: [
        {
          provide: APP_INTERCEPTOR,
          useFactory: (
            reflector: Reflector,
            cls: ClsService,
            txHost: TransactionHost<TransactionalAdapterTypeOrm>,
            dataSource: DataSource,
          ) => new TransactionInterceptor(reflector, cls, txHost, dataSource),
          inject: [
            Reflector,
            ClsService,
            getTransactionHostToken(name),
            dataSourceToken,
          ],
        },
        {
          provide: COMMITTED_RESULTS,
          useFactory: (dataSource: DataSource) =>
            new TypeOrmCommittedResults(dataSource),
          inject: [dataSourceToken],
        },
      ],
      exports: [COMMITTED_RESULTS],
    };
  }
}
