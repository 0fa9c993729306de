import {
  type ArgumentMetadata,
  type CanActivate,
  type PipeTransform,
  UseGuards,
} from '@nestjs/common';
import type { ExternalContextCreator } from '@nestjs/core';
import {
  type InstanceWrapper,
  isBodyParamtype,
} from '../../nest/nest-core.adapter.js';
import { type NestPipes } from '../../nest/nest-context.adapter.js';
import type { OperationRequest } from './operation-request.js';
import type { OperationResponse } from './operation-response.js';

// The parts an operation's pipeline is made of, apart from the pipeline.

/** Runs one call: guards, interceptors, pipes, then the method. */
export type OperationHandler = (
  request: OperationRequest,
  response: OperationResponse,
) => Promise<unknown>;

// The app's exception filters run around the handler (see `filteredException`).
export const CONTEXT_OPTIONS = {
  guards: true,
  interceptors: true,
  filters: false,
};
export const PARAMS_OPTIONS = {
  guards: false,
  interceptors: false,
  filters: false,
};
export const PIPES = Symbol('operations:pipes');
export const PARAMS = Symbol('operations:params');

/** The values of a method's decorated parameters, by index, for one call. */
export type ParamsResolver = (
  request: OperationRequest,
  response: OperationResponse,
) => Promise<unknown[]>;

/** The app's global, class and method pipes of one handler, and its decorated parameters. */
export type PipedRequest = OperationRequest & {
  [PIPES]?: PipeTransform[];
  [PARAMS]?: ParamsResolver;
};

/**
 * What Nest's route parameter types give a call: the input for a bare
 * `@Body()` on it (the only one an operation may have); the app's own
 * decorators get their values from the execution context.
 */
export const PARAMS_FACTORY = {
  exchangeKeyForValue(type: unknown, _data: unknown, args: unknown[]): unknown {
    return isBodyParamtype(type)
      ? (args[0] as OperationRequest).body
      : undefined;
  },
};

/** How the pipes see the invocation context: a custom argument, as in `ExternalContextCreator`. */
export const CONTEXT_ARGUMENT: ArgumentMetadata = Object.freeze({
  type: 'custom',
  metatype: Object,
  data: undefined,
});

/** What every operation's pipeline shares. */
export interface PipelineServices {
  readonly contextCreator: ExternalContextCreator;
  /** The one for decorated parameters' resolvers (`separateContextCreator`). */
  readonly paramsContextCreator: ExternalContextCreator;
  /** Selects a handler's global, class and method pipes. */
  readonly pipes: NestPipes;
  /** The library's permission and policy check, after the app's guards. */
  readonly authorization: CanActivate;
  /** Request-scoped and transient `APP_GUARD`, `APP_INTERCEPTOR`, `APP_PIPE`, `APP_FILTER`. */
  readonly scopedEnhancers: readonly InstanceWrapper[];
  /** Whether the app has global exception filters (`APP_FILTER`, `useGlobalFilters()`). */
  readonly globalFilters: boolean;
}

/** `target`, carrying a copy of every metadata of `method` (its `@UseGuards()`, `@UsePipes()`...). */
export function withMetadataOf<T extends object>(method: object, target: T): T {
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), target);
  }
  return target;
}

/**
 * `callback` made Nest's handler of `method`: its metadata (guards, pipes,
 * interceptors), the library's `authorization` after the method's guards,
 * and its name.
 */
export function asHandlerOf<T extends object>(
  method: object,
  callback: T,
  authorization: CanActivate,
  name: string,
): T {
  withMetadataOf(method, callback);
  // `@UseGuards()` on a method appends to the guards its function carries.
  UseGuards(authorization)(callback, name, { value: callback });
  Object.defineProperty(callback, 'name', { value: name });
  return callback;
}

/**
 * `value` through `pipes`, one after the other, as Nest's pipe consumer
 * runs a handler's pipes on an argument (a promise is awaited first).
 */
export async function applyPipes(
  value: unknown,
  metadata: ArgumentMetadata,
  pipes: readonly PipeTransform[],
): Promise<unknown> {
  let result: unknown = await value;
  for (const pipe of pipes) {
    result = (await pipe.transform(result, metadata)) as unknown;
  }
  return result;
}
