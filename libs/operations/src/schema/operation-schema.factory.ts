import type { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { ContractError } from '../errors/contract.error';
import {
  AMBIGUOUS_DTO_NAME,
  UNRESOLVED_SCHEMA_REF,
  ambiguousDtoNameMessage,
  unresolvedSchemaRefMessage,
} from '../errors/contract.messages';
import type { JsonSchema } from './json-schema.interface';
import { SCHEMA_CONVERTERS } from './schema-converters';

const DEFS = '#/$defs/';

/**
 * Turns class-validator DTOs into self-contained JSON Schema 2020-12
 * documents: every referenced DTO is placed under the schema's own `$defs`,
 * and objects reject unknown properties, as validation does.
 */
export class OperationSchemaFactory {
  private readonly definitions: Record<string, JsonSchema>;
  /** Class names that more than one validated class has. */
  private readonly ambiguousNames: ReadonlySet<string>;

  constructor() {
    const storage = getMetadataStorage();
    this.definitions = validationMetadatasToSchemas({
      classValidatorMetadataStorage: storage,
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: DEFS,
      additionalConverters: SCHEMA_CONVERTERS,
    }) as Record<string, JsonSchema>;
    this.ambiguousNames = ambiguousClassNames(storage);
  }

  /**
   * The schema of a DTO class, or undefined when it has no validation
   * metadata. `usedBy` names the user for error messages.
   */
  create(type: Type<unknown>, usedBy = type.name): JsonSchema | undefined {
    const root = this.definitions[type.name];
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
      const target = this.definitions[name];
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

function ambiguousClassNames(storage: object): ReadonlySet<string> {
  const metadatas = (
    storage as { validationMetadatas?: Map<Function, unknown> }
  ).validationMetadatas;
  const seen = new Map<string, Function>();
  const ambiguous = new Set<string>();
  for (const target of metadatas?.keys() ?? []) {
    if (typeof target !== 'function') {
      continue;
    }
    const other = seen.get(target.name);
    if (other && other !== target) {
      ambiguous.add(target.name);
    }
    seen.set(target.name, target);
  }
  return ambiguous;
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
