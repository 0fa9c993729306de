import type { ExecutionContext, Type } from '@nestjs/common';
import { OperationArgumentsHost } from '@nestops/operations/internal';

/**
 * The execution context of an HTTP request outside Nest's router, as a
 * guard reads it (`switchToHttp().getRequest()`, `getClass()`,
 * `getHandler()`): Nest's public `ExecutionContext` interface, written
 * here so that no private class of `@nestjs/core` is needed.
 */
export class HttpExecutionContext
  extends OperationArgumentsHost
  implements ExecutionContext
{
  constructor(
    args: unknown[],
    private readonly type: Type<unknown>,
    private readonly handler: Function,
  ) {
    super(args);
  }

  getClass<T>(): Type<T> {
    return this.type as Type<T>;
  }

  getHandler(): Function {
    return this.handler;
  }
}
