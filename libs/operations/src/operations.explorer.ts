import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ContractError } from './errors/contract.error.js';
import {
  CONTRACT_DUPLICATE_ID,
  CONTRACT_DUPLICATE_RESOURCE,
  CONTRACT_UNKNOWN_LIKE,
  duplicateIdMessage,
  duplicateResourceMessage,
  unknownLikeMessage,
} from './errors/contract.messages.js';
import {
  type CallableOptions,
  callableKey,
  callablesOf,
  OPERATION_KIND,
} from './callable.js';
import { assertClassTransformerInternals } from './nest/class-transformer.adapter.js';
import { assertClassValidatorInternals } from './nest/class-validator.adapter.js';
import type {
  OperationDefinition,
  OperationOptions,
} from './interfaces/operation-contract.js';
import type { InstanceWrapper } from './nest/nest-core.adapter.js';
import {
  createOperationDefinition,
  NO_PARAMETER,
} from './operation-definition.factory.js';
import { OperationMetadataAccessor } from './operation-metadata.accessor.js';
import {
  DiscoveredOperation,
  OperationRegistry,
} from './operation.registry.js';
import { OperationSchemaFactory } from './schema/operation-schema.factory.js';
import { decoratedParameters } from './invocation/pipeline/operation-params.js';

/**
 * Finds every `@Operation()` method of every provider once, at module
 * initialisation, and seals the registry. First it checks that the
 * class-validator and class-transformer internals that discovery reads are
 * there (Nest's are checked before the first pipeline is built).
 */
@Injectable()
export class OperationsExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: OperationMetadataAccessor,
    private readonly registry: OperationRegistry,
  ) {}

  onModuleInit(): void {
    assertClassValidatorInternals();
    assertClassTransformerInternals();
    this.registry.seal(this.explore());
  }

  private explore(): DiscoveredOperation[] {
    const schemas = new OperationSchemaFactory();
    const found = new Map<string, DiscoveredOperation>();
    for (const wrapper of this.discovery.getProviders()) {
      const type = this.classOf(wrapper);
      if (!type) {
        continue;
      }
      for (const methodName of this.scanner.getAllMethodNames(type.prototype)) {
        const method: unknown = type.prototype[methodName];
        const options = this.accessor.getOperationOptions(method);
        const declared: [string, OperationOptions, CallableOptions?][] = [
          ...(options
            ? [[OPERATION_KIND, options] as [string, OperationOptions]]
            : []),
          ...callablesOf(method).map(
            (callable) =>
              [callable.kind, operationOptionsOf(callable), callable] as [
                string,
                OperationOptions,
                CallableOptions,
              ],
          ),
        ];
        for (const [kind, declaration, callable] of declared) {
          const source = `${type.name}.${methodName}`;
          const paramTypes: unknown[] =
            Reflect.getMetadata(
              'design:paramtypes',
              type.prototype,
              methodName,
            ) ?? [];
          // Route decorators first: a @Req() input is refused as that, not as a non-class input.
          const decorated = decoratedParameters(
            declaration.id,
            source,
            type,
            methodName,
          );
          const definition = createOperationDefinition(
            declaration,
            source,
            paramTypes.length > 0 ? paramTypes[0] : NO_PARAMETER,
            schemas,
            kind,
          );
          const key = callableKey(kind, definition.id);
          const previous = found.get(key);
          if (previous) {
            throw new ContractError(
              CONTRACT_DUPLICATE_ID,
              duplicateIdMessage(
                definition.id,
                previous.definition.source,
                source,
                kindLabel(kind),
              ),
            );
          }
          found.set(key, {
            kind,
            definition,
            host: {
              wrapper,
              type,
              methodName,
              isStatic: wrapper.isDependencyTreeStatic(),
              decorated,
            },
            ...(callable?.like ? { like: callable.like } : {}),
          });
        }
      }
    }
    const operations = [...found.values()].map((entry) =>
      withRightsOfLike(entry, found),
    );
    uniqueResources(
      operations
        .filter((operation) => operation.kind === OPERATION_KIND)
        .map((operation) => operation.definition),
    );
    return operations;
  }

  private classOf(
    wrapper: InstanceWrapper,
  ): (new (...args: never[]) => Record<string, unknown>) | undefined {
    if (wrapper.isAlias) {
      return undefined;
    }
    const type =
      !wrapper.metatype || wrapper.inject
        ? (wrapper.instance as object | undefined)?.constructor
        : wrapper.metatype;
    return typeof type === 'function' && type !== Object
      ? (type as new (...args: never[]) => Record<string, unknown>)
      : undefined;
  }
}

/** `prompt` → `Prompt`, for messages. */
function kindLabel(kind: string): string {
  return `${kind[0].toUpperCase()}${kind.slice(1)}`;
}

/** A callable's options as `@Operation()` would state them: read-only, on its carrier. */
function operationOptionsOf(callable: CallableOptions): OperationOptions {
  const { id, title, description, permission, policy, input, expose } =
    callable;
  return {
    id,
    title,
    description,
    permission,
    policy,
    input,
    expose,
    readOnly: true,
    ...(callable.elicits ? { elicits: callable.elicits } : {}),
    ...(callable.requires ? { requires: callable.requires } : {}),
  };
}

/**
 * The entry with the permissions and policy of the callable it runs like,
 * when it names one; throws when there is none.
 */
function withRightsOfLike(
  entry: DiscoveredOperation & { readonly like?: CallableOptions['like'] },
  found: ReadonlyMap<string, DiscoveredOperation>,
): DiscoveredOperation {
  const { like, ...discovered } = entry;
  if (!like) {
    return discovered;
  }
  const model = found.get(callableKey(like.kind, like.id));
  if (!model || model.kind !== like.kind) {
    throw new ContractError(
      CONTRACT_UNKNOWN_LIKE,
      unknownLikeMessage(
        kindLabel(entry.kind),
        entry.definition.id,
        entry.definition.source,
        `${like.kind} '${like.id}'`,
      ),
    );
  }
  const { permissions, policy } = model.definition;
  return {
    ...discovered,
    definition: Object.freeze({ ...entry.definition, permissions, policy }),
  };
}

/** Throws when two operations are read at one resource URI. */
function uniqueResources(definitions: readonly OperationDefinition[]): void {
  const byUri = new Map<string, string>();
  for (const { id, asResource } of definitions) {
    if (!asResource) {
      continue;
    }
    const previous = byUri.get(asResource.uri);
    if (previous !== undefined) {
      throw new ContractError(
        CONTRACT_DUPLICATE_RESOURCE,
        duplicateResourceMessage(asResource.uri, previous, id),
      );
    }
    byUri.set(asResource.uri, id);
  }
}
