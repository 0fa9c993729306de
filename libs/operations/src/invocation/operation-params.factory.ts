import { type ParamsFactory, RouteParamtypes } from '../nest-internals';
import { invocationOf } from './operation-request';

/**
 * Argument kinds of an operation handler, `(input, context)`. Nest's pipes
 * see the input as the request body (`type: 'body'`, so validation pipes run
 * on it) and the context as a custom argument they leave alone.
 */
export const OperationParamType = {
  INPUT: RouteParamtypes.BODY,
  CONTEXT: RouteParamtypes.REQUEST,
} as const;

/** Hands the handler its input and invocation context from the per-call request. */
export class OperationParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    const request = args[0] as { body?: unknown } | undefined;
    return type === OperationParamType.INPUT
      ? request?.body
      : invocationOf(request);
  }
}
