import type { Type } from '@nestjs/common';
import type {
  Carrier,
  OperationOptions,
} from './interfaces/operation-contract.js';

/** Metadata key of the callables of other kinds on a method (a list). */
export const CALLABLE_METADATA = 'operations:callables';

/** The kind of every `@Operation()` method. */
export const OPERATION_KIND = 'operation';

/**
 * A provider method a carrier names in its own vocabulary (an
 * MCP prompt, a completer) that runs through the operation pipeline: the
 * app's guards, the permission and policy, pipes and validation,
 * interceptors, filters, deadline. It is never listed as an operation.
 */
export interface CallableOptions {
  /** The carrier's name of the kind (`prompt`); not `operation`. */
  readonly kind: string;
  /** Unique within its kind; the carrier checks its form. */
  readonly id: string;
  /** A short human-readable name, in the app's default language. */
  readonly title?: string;
  /** What it does, in the app's default language. */
  readonly description?: string;
  /** Permission(s) the caller must hold, as `@Operation({ permission })`. */
  readonly permission?: string | readonly string[];
  /** An app-defined check after the permissions, as `@Operation({ policy })`. */
  readonly policy?: OperationOptions['policy'];
  /** The input class; inferred from the first parameter when omitted. */
  readonly input?: Type<unknown> | null;
  /** Carriers it runs on. Default: all. */
  readonly expose?: readonly Carrier[];
  /** The forms it asks the user to fill in, as `@Operation({ elicits })`. */
  readonly elicits?: OperationOptions['elicits'];
  /** What the client must be able to answer, as `@Operation({ requires })`. */
  readonly requires?: OperationOptions['requires'];
  /**
   * Another callable whose permissions and policy it runs with, instead of
   * its own (a completer runs with those of what it completes); startup
   * fails when there is none of that kind and id.
   */
  readonly like?: { readonly kind: string; readonly id: string };
}

/**
 * Declares a method as a callable of another kind; several may
 * be stacked on one method.
 */
export function Callable(options: CallableOptions): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const method = descriptor.value as object;
    const previous: readonly CallableOptions[] =
      Reflect.getMetadata(CALLABLE_METADATA, method) ?? [];
    Reflect.defineMetadata(
      CALLABLE_METADATA,
      Object.freeze([...previous, Object.freeze({ ...options })]),
      method,
    );
    return descriptor;
  };
}

/** The callables of other kinds declared on `method`. */
export function callablesOf(method: unknown): readonly CallableOptions[] {
  return typeof method === 'function'
    ? (Reflect.getMetadata(CALLABLE_METADATA, method) ?? [])
    : [];
}

/** The registry's key of a callable: the id for operations, `<kind>:<id>` otherwise. */
export function callableKey(kind: string, id: string): string {
  return kind === OPERATION_KIND ? id : `${kind}:${id}`;
}
