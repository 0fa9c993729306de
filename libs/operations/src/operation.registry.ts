import { Injectable } from '@nestjs/common';
import { callableKey, OPERATION_KIND } from './callable.js';
import type { Carrier } from './interfaces/operation-contract.js';
import type { OperationDefinition } from './interfaces/operation-contract.js';
import type { InstanceWrapper } from './nest/nest-core.adapter.js';

/** @internal Where an operation's method lives, for the pipeline runner. */
export interface OperationHost {
  readonly wrapper: InstanceWrapper;
  /** The provider's class (for factory providers, the instance's constructor). */
  readonly type: Function;
  readonly methodName: string;
  /** Decided once at discovery: the provider and its dependencies are singletons. */
  readonly isStatic: boolean;
  /** The parameters the app's own parameter decorators fill (the input and context are the others). */
  readonly decorated: readonly number[];
}

/** @internal */
export interface DiscoveredOperation {
  /** `operation`, or another kind's name (see `CallableOptions`). */
  readonly kind: string;
  readonly definition: OperationDefinition;
  readonly host: OperationHost;
}

/**
 * Every operation of the application, discovered once at bootstrap. Nothing
 * is added or changed afterwards.
 *
 * @publicApi
 */
@Injectable()
export class OperationRegistry {
  private entries?: ReadonlyMap<string, DiscoveredOperation>;

  /** All operations, in discovery order. */
  list(): readonly OperationDefinition[] {
    return this.callables(OPERATION_KIND);
  }

  /**
   * The callables of another kind (a carrier's prompts, completers), in
   * discovery order: for carriers.
   */
  callables(kind: string): readonly OperationDefinition[] {
    return [...this.sealed().values()]
      .filter((entry) => entry.kind === kind)
      .map((entry) => entry.definition);
  }

  /** The operations published on one carrier. */
  exposedOn(carrier: Carrier): readonly OperationDefinition[] {
    return this.list().filter((definition) =>
      definition.expose.includes(carrier),
    );
  }

  /** The operation `id`, or undefined when the app has none of that id. */
  get(id: string): OperationDefinition | undefined {
    return this.callable(OPERATION_KIND, id);
  }

  /** The callable of `kind` and `id`, or undefined: for carriers. */
  callable(kind: string, id: string): OperationDefinition | undefined {
    const entry = this.sealed().get(callableKey(kind, id));
    return entry?.kind === kind ? entry.definition : undefined;
  }

  /** @internal The definition of registry key `key` (`callableKey`). */
  entryOf(key: string): OperationDefinition | undefined {
    return this.sealed().get(key)?.definition;
  }

  /** @internal Where the callable of registry key `key` lives (`callableKey`). */
  host(key: string): OperationHost | undefined {
    return this.sealed().get(key)?.host;
  }

  /** @internal Called once by the explorer. */
  seal(operations: readonly DiscoveredOperation[]): void {
    if (this.entries) {
      throw new Error('The operation registry is already built.');
    }
    this.entries = new Map(
      operations.map((operation) => [
        callableKey(operation.kind, operation.definition.id),
        operation,
      ]),
    );
  }

  private sealed(): ReadonlyMap<string, DiscoveredOperation> {
    if (!this.entries) {
      throw new Error(
        'Operations are discovered during module initialisation; the registry is not built yet.',
      );
    }
    return this.entries;
  }
}
