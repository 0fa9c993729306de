import type { ContextType, ExecutionContext, Type } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ExecutionContext['switchToHttp']>;
type RpcArgumentsHost = ReturnType<ExecutionContext['switchToRpc']>;
type WsArgumentsHost = ReturnType<ExecutionContext['switchToWs']>;

/**
 * The execution context of an HTTP request outside Nest's router, as a
 * guard reads it (`switchToHttp().getRequest()`, `getClass()`,
 * `getHandler()`): Nest's public `ExecutionContext` interface, written
 * here so that no private class of `@nestjs/core` is needed.
 */
export class HttpExecutionContext implements ExecutionContext {
  constructor(
    private readonly args: unknown[],
    private readonly type: Type<unknown>,
    private readonly handler: Function,
  ) {}

  getClass<T>(): Type<T> {
    return this.type as Type<T>;
  }

  getHandler(): Function {
    return this.handler;
  }

  getArgs<T extends unknown[]>(): T {
    return this.args as T;
  }

  getArgByIndex<T>(index: number): T {
    return this.args[index] as T;
  }

  getType<T extends string = ContextType>(): T {
    return 'http' as T;
  }

  switchToHttp(): HttpArgumentsHost {
    return {
      getRequest: <T>() => this.getArgByIndex<T>(0),
      getResponse: <T>() => this.getArgByIndex<T>(1),
      getNext: <T>() => this.getArgByIndex<T>(2),
    };
  }

  switchToRpc(): RpcArgumentsHost {
    return {
      getData: <T>() => this.getArgByIndex<T>(0),
      getContext: <T>() => this.getArgByIndex<T>(1),
    };
  }

  switchToWs(): WsArgumentsHost {
    return {
      getClient: <T>() => this.getArgByIndex<T>(0),
      getData: <T>() => this.getArgByIndex<T>(1),
      getPattern: () => this.getArgByIndex<string>(this.args.length - 1),
    };
  }
}
