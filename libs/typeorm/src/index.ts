export { UnitOfWorkModule } from './unit-of-work.module.js';
export type { UnitOfWorkModuleOptions } from './unit-of-work.module.js';
export { TransactionInterceptor } from './transaction.interceptor.js';
export { UnitOfWork } from './unit-of-work.decorator.js';
