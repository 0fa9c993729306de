import { Injectable } from '@nestjs/common';
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
    return [...this.sealed().values()].map((entry) => entry.definition);
  }

  /** The operations published on one carrier. */
  exposedOn(carrier: Carrier): readonly OperationDefinition[] {
    return this.list().filter((definition) =>
      definition.expose.includes(carrier),
    );
  }

  /** The operation `id`, or undefined when the app has none of that id. */
  get(id: string): OperationDefinition | undefined {
    return this.sealed().get(id)?.definition;
  }

  /** @internal */
  host(id: string): OperationHost | undefined {
    return this.sealed().get(id)?.host;
  }

  /** @internal Called once by the explorer. */
  seal(operations: readonly DiscoveredOperation[]): void {
    if (this.entries) {
      throw new Error('The operation registry is already built.');
    }
    this.entries = new Map(
      operations.map((operation) => [operation.definition.id, operation]),
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
