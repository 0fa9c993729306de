/**
 * `@nestops/typeorm`: one TypeORM transaction per `@Operation` call (and per
 * mutating REST request), through `@nestjs-cls/transactional`.
 *
 * @packageDocumentation
 */

export { UnitOfWorkModule } from './unit-of-work.module.js';
export type { UnitOfWorkModuleOptions } from './unit-of-work.module.js';
export { TransactionInterceptor } from './transaction.interceptor.js';
export { UnitOfWork } from './unit-of-work.decorator.js';
export { CallEndedError } from './call-scoped.adapter.js';
