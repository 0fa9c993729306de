import type { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { JsonSchema } from './json-schema.interface';

const DEFS = '#/$defs/';

/**
 * Turns class-validator DTOs into self-contained JSON Schema 2020-12
 * documents: every referenced DTO is placed under the schema's own `$defs`,
 * and objects reject unknown properties, as validation does.
 */
export class OperationSchemaFactory {
  private readonly definitions: Record<string, JsonSchema>;

  constructor() {
    this.definitions = validationMetadatasToSchemas({
      classValidatorMetadataStorage: getMetadataStorage(),
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: DEFS,
    }) as Record<string, JsonSchema>;
  }

  /** The schema of a DTO class, or undefined when it has no validation metadata. */
  create(type: Type<unknown>): JsonSchema | undefined {
    const root = this.definitions[type.name];
    if (!root) {
      return undefined;
    }
    const defs: Record<string, JsonSchema> = {};
    this.collectReferences(root, defs);
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
  ): void {
    if (Array.isArray(node)) {
      node.forEach((item) => this.collectReferences(item, defs));
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
        throw new Error(
          `Schema reference '${ref}' has no class-validator metadata; decorate the nested class's properties.`,
        );
      }
      if (!(name in defs)) {
        defs[name] = target;
        this.collectReferences(target, defs);
      }
    }
    Object.values(node).forEach((value) => this.collectReferences(value, defs));
  }
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
