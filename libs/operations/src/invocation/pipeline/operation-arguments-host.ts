import type { ArgumentsHost, ContextType } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ArgumentsHost['switchToHttp']>;
type RpcArgumentsHost = ReturnType<ArgumentsHost['switchToRpc']>;
type WsArgumentsHost = ReturnType<ArgumentsHost['switchToWs']>;

/**
 * The `ArgumentsHost` an exception filter gets for a call (and the base of
 * a carrier's own `ExecutionContext`): its arguments are the call's
 * `(request, response)`, and its type is `'http'`, as on the app's routes.
 * Built on Nest's public `ArgumentsHost` interface alone.
 */
export class OperationArgumentsHost implements ArgumentsHost {
  constructor(private readonly args: unknown[]) {}

  /** The call's arguments: `[request, response]`. */
  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as T;
  }

  /** One of the call's arguments. */
  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  /** `'http'`: filters treat a call as they treat a request to a route. */
  getType<T extends string = ContextType>(): T {
    return 'http' as T;
  }

  /** The request, the response and (none) the `next` of a call. */
  switchToHttp(): HttpArgumentsHost {
    return {
      getRequest: <T>() => this.getArgByIndex<T>(0),
      getResponse: <T>() => this.getArgByIndex<T>(1),
      getNext: <T>() => this.getArgByIndex<T>(2),
    };
  }

  /** The arguments as an RPC handler's `(data, context)`. */
  switchToRpc(): RpcArgumentsHost {
    return {
      getData: <T>() => this.getArgByIndex<T>(0),
      getContext: <T>() => this.getArgByIndex<T>(1),
    };
  }

  /** The arguments as a gateway handler's `(client, data, ..., pattern)`. */
  switchToWs(): WsArgumentsHost {
    return {
      getClient: <T>() => this.getArgByIndex<T>(0),
      getData: <T>() => this.getArgByIndex<T>(1),
      getPattern: () => this.getArgByIndex<string>(this.args.length - 1),
    };
  }
}
