import { SetMetadata } from '@nestjs/common';
import type { OperationOptions } from './interfaces/operation-contract.js';
import { OPERATION_METADATA } from './operations.constants.js';

/**
 * Declares a provider method as an operation of the application. The
 * operation is discovered at bootstrap and published on the carriers in
 * `expose` (all by default), running through the app's guards, pipes and
 * interceptors on each call.
 *
 * ```ts
 * @Operation({ id: 'orders.create', permission: 'orders.write', output: OrderDto })
 * create(input: CreateOrderDto): Promise<OrderDto> { ... }
 * ```
 *
 * @publicApi
 */
export const Operation = (options: OperationOptions): MethodDecorator =>
  SetMetadata(OPERATION_METADATA, Object.freeze({ ...options }));
