import type { ParamsFactory } from '../nest-internals';
import { invocationOf } from './operation-request';

/** Argument kinds of an operation handler: `(input, context)`. */
export enum OperationParamType {
  INPUT = 0,
  CONTEXT = 1,
}

/** Hands the handler its input and invocation context from the per-call request. */
export class OperationParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    const request = args[0] as { body?: unknown } | undefined;
    return type === OperationParamType.INPUT
      ? request?.body
      : invocationOf(request);
  }
}
