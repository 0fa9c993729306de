import { SetMetadata } from '@nestjs/common';
import type { OperationOptions } from '@nestops/operations';

/** Metadata key of `@UnitOfWork()`. */
export const UNIT_OF_WORK_METADATA = 'nestops:unit-of-work';

/**
 * The unit of work of a route or handler that is not an operation (a REST
 * controller method, or every method of a controller class): `true` (the
 * default) runs each request in one transaction, `false` in none,
 * `{ isolation }` in one at that isolation level. Without it, the
 * transaction interceptor opens a transaction for HTTP methods other than
 * GET, HEAD and OPTIONS. Operations say it with `@Operation({ transaction })`.
 *
 * ```ts
 * @Post()
 * @UnitOfWork({ isolation: 'SERIALIZABLE' })
 * create(@Body() input: CreateOrderDto) { ... }
 * ```
 *
 * @publicApi
 */
export const UnitOfWork = (
  transaction: NonNullable<OperationOptions['transaction']> = true,
): MethodDecorator & ClassDecorator =>
  SetMetadata(UNIT_OF_WORK_METADATA, transaction);
