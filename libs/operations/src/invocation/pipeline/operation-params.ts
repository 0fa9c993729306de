import { ContractError } from '../../errors/contract.error.js';
import {
  ROUTE_PARAMETER,
  routeParameterMessage,
} from '../../errors/contract.messages.js';
import { routeArgumentsOf } from '../../nest/nest-core.adapter.js';

/**
 * The parameters of an operation method that the app's own parameter
 * decorators (`createParamDecorator()`) fill, as on a route; the others
 * are the input (the first) and the invocation context (the second).
 * Throws a `ContractError` naming the method and the parameter for a
 * decorator that means nothing for a call: any of Nest's route parameter
 * decorators (`@Req()`, `@Res()`, `@Query()`, `@Param()`, `@Headers()`...)
 * except a bare `@Body()` on the input, and the app's own on the input.
 */
export function decoratedParameters(
  operationId: string,
  source: string,
  type: Function,
  methodName: string,
): readonly number[] {
  const decorated: number[] = [];
  for (const argument of routeArgumentsOf(type, methodName)) {
    const isInput =
      argument.index === 0 &&
      argument.type === 'BODY' &&
      argument.data === undefined &&
      argument.pipes.length === 0;
    if (argument.type === 'custom' && argument.index > 0) {
      decorated.push(argument.index);
    } else if (!isInput) {
      throw new ContractError(
        ROUTE_PARAMETER,
        routeParameterMessage(
          operationId,
          source,
          argument.index,
          argument.type,
        ),
      );
    }
  }
  return Object.freeze(decorated);
}
