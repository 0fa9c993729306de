import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { validationMetadataArrayToSchemas } from 'class-validator-jsonschema';
import { ContractError } from '../errors/contract.error.js';
import {
  AMBIGUOUS_DTO_NAME,
  UNRESOLVED_SCHEMA_REF,
  ambiguousDtoNameMessage,
  unresolvedSchemaRefMessage,
} from '../errors/contract.messages.js';
import type { JsonSchema } from './json-schema.interface.js';
import { SCHEMA_CONVERTERS } from './schema-converters.js';
import { classTransformerStorage } from '../nest/class-transformer.adapter.js';
import {
  registeredValidationRules,
  type ValidationMetadata as Metadata,
  type ValidationStorage,
} from '../nest/class-validator.adapter.js';

const DEFS = '#/$defs/';

/**
 * Turns class-validator DTOs into self-contained JSON Schema 2020-12
 * documents: every referenced DTO is placed under the schema's own `$defs`,
 * and objects reject unknown properties, as validation does.
 */
export class OperationSchemaFactory {
  /** Each class's own rules, with custom constraints named. */
  private readonly own = new Map<Function, Metadata[]>();
  /** The validated classes by name (one of them, where names repeat). */
  private readonly byName = new Map<string, Function>();
  /** Class names that more than one validated class has. */
  private readonly ambiguousNames = new Set<string>();
  /** Schemas generated so far, by class name. */
  private readonly definitions = new Map<string, JsonSchema | undefined>();
  /** The documents made so far, by class: one (frozen) object per class. */
  private readonly documents = new Map<Function, JsonSchema | undefined>();

  constructor() {
    const storage = getMetadataStorage();
    for (const [target, metadatas] of registeredValidationRules(storage)) {
      if (typeof target !== 'function') {
        continue;
      }
      this.own.set(
        target,
        metadatas.map((metadata) => withConstraintName(storage, metadata)),
      );
      const other = this.byName.get(target.name);
      if (other && other !== target) {
        this.ambiguousNames.add(target.name);
      }
      this.byName.set(target.name, target);
    }
  }

  /**
   * The schema of a DTO class, or undefined when it has no validation
   * metadata. `usedBy` names the user for error messages. Every use of a
   * class gets the same frozen object, so what is compiled from a schema
   * (an output check) is compiled once per class.
   */
  create(type: Type<unknown>, usedBy = type.name): JsonSchema | undefined {
    if (this.documents.has(type)) {
      return this.documents.get(type);
    }
    const schema = this.document(type, usedBy);
    this.documents.set(type, schema);
    return schema;
  }

  private document(
    type: Type<unknown>,
    usedBy: string,
  ): JsonSchema | undefined {
    const root = this.definition(type.name);
    if (!root) {
      return undefined;
    }
    const defs: Record<string, JsonSchema> = {};
    this.collectReferences(root, defs, usedBy);
    for (const name of [type.name, ...Object.keys(defs)]) {
      if (this.ambiguousNames.has(name)) {
        throw new ContractError(
          AMBIGUOUS_DTO_NAME,
          ambiguousDtoNameMessage(name, usedBy),
        );
      }
    }
    const schema = closeObjects(structuredClone(root));
    if (Object.keys(defs).length > 0) {
      schema.$defs = Object.fromEntries(
        Object.entries(defs).map(([name, def]) => [
          name,
          closeObjects(structuredClone(def)),
        ]),
      );
    }
    return deepFreeze(schema);
  }

  /**
   * The JSON Schema of the class named `name`, generated on first use from
   * its own rules and its ancestors' only, so generating every DTO's schema
   * is linear in their number (handing class-validator-jsonschema every
   * rule of the app at once compares each class with every rule).
   */
  private definition(name: string): JsonSchema | undefined {
    if (!this.definitions.has(name)) {
      const type = this.byName.get(name);
      this.definitions.set(name, type && this.generate(type));
    }
    return this.definitions.get(name);
  }

  private generate(type: Function): JsonSchema | undefined {
    const metadatas: Metadata[] = [];
    for (
      let target: unknown = type;
      typeof target === 'function' && target !== Function.prototype;
      target = Object.getPrototypeOf(target)
    ) {
      // Copies: class-validator-jsonschema renames properties in place.
      for (const metadata of this.own.get(target) ?? []) {
        metadatas.push({ ...metadata });
      }
    }
    const schemas = validationMetadataArrayToSchemas(metadatas, {
      classTransformerMetadataStorage: classTransformerStorage(),
      refPointerPrefix: DEFS,
      additionalConverters: SCHEMA_CONVERTERS,
    }) as Record<string, JsonSchema>;
    if (!Object.hasOwn(schemas, type.name)) {
      return undefined;
    }
    return withDefaults(schemas[type.name], type);
  }

  private collectReferences(
    node: unknown,
    defs: Record<string, JsonSchema>,
    usedBy: string,
  ): void {
    if (Array.isArray(node)) {
      node.forEach((item) => this.collectReferences(item, defs, usedBy));
      return;
    }
    if (!isObject(node)) {
      return;
    }
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith(DEFS)) {
      const name = ref.slice(DEFS.length);
      const target = this.definition(name);
      if (!target) {
        throw new ContractError(
          UNRESOLVED_SCHEMA_REF,
          unresolvedSchemaRefMessage(name, usedBy),
        );
      }
      if (!(name in defs)) {
        defs[name] = target;
        this.collectReferences(target, defs, usedBy);
      }
    }
    Object.values(node).forEach((value) =>
      this.collectReferences(value, defs, usedBy),
    );
  }
}

/**
 * A rule as class-validator-jsonschema reads it: a custom constraint's rule
 * carries the constraint's name as its type (as its own loader does).
 */
function withConstraintName(
  storage: ValidationStorage,
  metadata: Metadata,
): Metadata {
  const constraint = metadata.constraintCls
    ? storage.getTargetValidatorConstraints(metadata.constraintCls)[0]
    : undefined;
  return constraint ? { ...metadata, type: constraint.name } : { ...metadata };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function closeObjects(schema: JsonSchema): JsonSchema {
  if (schema.type === 'object' && schema.properties) {
    schema.additionalProperties ??= false;
  }
  return schema;
}

function deepFreeze<T>(value: T): T {
  if (isObject(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/**
 * `schema` with each property's `default` taken from the class's property
 * initialisers (`priority = 'normal'`), which class-transformer keeps for
 * properties a call leaves out; an explicit `@JSONSchema({ default })`
 * wins. Only JSON values; none for a class whose constructor needs
 * arguments or throws.
 */
function withDefaults(schema: JsonSchema, type: Function): JsonSchema {
  const properties = schema.properties;
  if (!isObject(properties) || type.length > 0) {
    return schema;
  }
  let instance: Record<string, unknown>;
  try {
    instance = new (type as new () => Record<string, unknown>)();
  } catch {
    return schema;
  }
  for (const [name, property] of Object.entries(properties)) {
    const value = Object.hasOwn(instance, name) ? instance[name] : undefined;
    if (isObject(property) && !('default' in property) && isJson(value, 0)) {
      property.default = value;
    }
  }
  return schema;
}

/** Strings, finite numbers, booleans, null, and arrays and plain objects of them. */
function isJson(value: unknown, depth: number): boolean {
  if (depth > 16) {
    return false;
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value === null) {
        return true;
      }
      if (Array.isArray(value)) {
        return value.every((item) => isJson(item, depth + 1));
      }
      return (
        Object.getPrototypeOf(value) === Object.prototype &&
        Object.values(value).every((item) => isJson(item, depth + 1))
      );
    default:
      return false;
  }
}
