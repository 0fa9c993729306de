import type { JsonSchema } from '../../schema/json-schema.interface.js';

/** Rebuilds a plain value with only the properties its schema declares. */
export type OutputShape = (value: unknown) => unknown;

const keep: OutputShape = (value) => value;

/**
 * Compiles, once, the shaping plan of an output schema as the schema
 * factory emits it: an object with `properties` keeps exactly those (nested
 * DTOs through `$ref`, arrays of them through `items`); an optional property
 * that is `undefined`, or `null` where its schema does not allow null, is
 * left out, as `@IsOptional()` reads both as absent. Anything else is kept
 * as it is, for the output check to judge.
 */
export function compileOutputShape(schema: JsonSchema): OutputShape {
  return new ShapeCompiler(schema.$defs ?? {}).compile(schema);
}

interface Field {
  readonly key: string;
  readonly shape: OutputShape;
  readonly nullIsAbsent: boolean;
}

class ShapeCompiler {
  private readonly refs = new Map<string, OutputShape>();

  constructor(private readonly defs: Readonly<Record<string, JsonSchema>>) {}

  compile(node: unknown): OutputShape {
    if (!isJsonObject(node)) {
      return keep;
    }
    if (typeof node.$ref === 'string') {
      return this.ref(node.$ref);
    }
    if (isJsonObject(node.properties)) {
      return this.object(node as JsonSchema);
    }
    if (isJsonObject(node.items)) {
      const item = this.compile(node.items);
      return (value) => (Array.isArray(value) ? value.map(item) : value);
    }
    return keep;
  }

  private object(node: JsonSchema): OutputShape {
    const required = new Set(node.required ?? []);
    const fields: Field[] = Object.entries(node.properties ?? {}).map(
      ([key, property]) => ({
        key,
        shape: this.compile(property),
        nullIsAbsent: !required.has(key) && !this.allowsNull(property),
      }),
    );
    // A map DTO (`@ValidateNested({ each: true })` on a Map) keeps its keys.
    const rest = isJsonObject(node.additionalProperties)
      ? this.compile(node.additionalProperties)
      : undefined;
    const declared = new Set(fields.map((field) => field.key));
    return (value) => {
      if (!isJsonObject(value)) {
        return value;
      }
      const shaped: Record<string, unknown> = {};
      for (const { key, shape, nullIsAbsent } of fields) {
        const property = Object.hasOwn(value, key) ? value[key] : undefined;
        if (property !== undefined && !(property === null && nullIsAbsent)) {
          shaped[key] = shape(property);
        }
      }
      if (rest) {
        for (const [key, property] of Object.entries(value)) {
          if (!declared.has(key)) {
            shaped[key] = rest(property);
          }
        }
      }
      return shaped;
    };
  }

  /** Whether a property's schema admits `null` (its type, or a branch of it). */
  private allowsNull(node: unknown): boolean {
    if (!isJsonObject(node)) {
      return node === true;
    }
    if (typeof node.$ref === 'string') {
      const name = node.$ref.slice(node.$ref.lastIndexOf('/') + 1);
      return this.allowsNull(this.defs[name]);
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (node.type === undefined) {
      return ['anyOf', 'oneOf'].some(
        (key) =>
          Array.isArray(node[key]) &&
          (node[key] as unknown[]).some((branch) => this.allowsNull(branch)),
      );
    }
    return types.includes('null');
  }

  private ref(pointer: string): OutputShape {
    const found = this.refs.get(pointer);
    if (found) {
      return found;
    }
    // Set before compiling, so a DTO that refers to itself finds it.
    let compiled: OutputShape = keep;
    const shape: OutputShape = (value) => compiled(value);
    this.refs.set(pointer, shape);
    const name = pointer.slice(pointer.lastIndexOf('/') + 1);
    compiled = this.compile(this.defs[name]);
    return shape;
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
