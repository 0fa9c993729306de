export { UnitOfWorkModule } from './unit-of-work.module';
export type { UnitOfWorkModuleOptions } from './unit-of-work.module';
export { TransactionInterceptor } from './transaction.interceptor';
export { UnitOfWork } from './unit-of-work.decorator';
