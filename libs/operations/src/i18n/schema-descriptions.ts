import { registeredValidationRules } from '../nest/class-validator.adapter.js';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import {
  DTO_NAMESPACE,
  propertyDescriptionKey,
} from './operation-text-keys.js';

/** How the catalogue is read: one key's text, and whether a group has any. */
export interface TextLookup {
  /** The text of `key` in `locale`, or undefined where it has none. */
  text(key: string, locale: string): string | undefined;
  /** Whether some text exists at or under `key` in `locale`. */
  has(key: string, locale: string): boolean;
}

/** Property descriptions of one class in one language, by property name. */
type Descriptions = ReadonlyMap<string, string>;

/**
 * Schema documents in one language: each property of the document's class
 * and of every class under its `$defs` described by the catalogue key
 * `dto.<class name>.<property>` where the catalogue has it (else the key of
 * the nearest ancestor class that has one), over the `@JSONSchema`
 * description. Each class is looked up once per language, whatever the
 * number of documents it appears in, and each document is localized once
 * per language; a document the catalogue adds nothing to is returned as it
 * is.
 */
export class SchemaDescriptions {
  private classes?: ReadonlyMap<string, Function>;
  private readonly byLocale = new Map<string, Map<Function, Descriptions>>();
  private readonly namespaces = new Map<string, boolean>();
  private readonly documents = new WeakMap<
    JsonSchema,
    Map<string, JsonSchema>
  >();

  constructor(private readonly lookup: TextLookup) {}

  /** `schema`, the document of class `type`, in `locale`. */
  localize(schema: JsonSchema, type: Function, locale: string): JsonSchema {
    const localized = memo(this.documents, schema, () => new Map());
    return memo(localized, locale, () => this.describe(schema, type, locale));
  }

  private describe(
    schema: JsonSchema,
    type: Function,
    locale: string,
  ): JsonSchema {
    const root = withDescriptions(
      schema,
      this.descriptionsOf(type, schema, locale),
    );
    const defs = schema.$defs;
    let changedDefs: Record<string, JsonSchema> | undefined;
    for (const [name, def] of Object.entries(defs ?? {})) {
      const nested = this.classNamed(name);
      const described = nested
        ? withDescriptions(def, this.descriptionsOf(nested, def, locale))
        : def;
      if (described !== def) {
        changedDefs ??= { ...defs };
        changedDefs[name] = described;
      }
    }
    if (!changedDefs) {
      return root;
    }
    return Object.freeze({
      ...root,
      $defs: Object.freeze(changedDefs),
    });
  }

  private descriptionsOf(
    type: Function,
    schema: JsonSchema,
    locale: string,
  ): Descriptions {
    const byClass = memo(this.byLocale, locale, () => new Map());
    return memo(byClass, type, () => {
      const found = new Map<string, string>();
      // One lookup per class tells whether its properties need any.
      const lineage = this.hasNamespace(locale)
        ? classLineage(type).filter((name) =>
            this.lookup.has(propertyDescriptionKey(name), locale),
          )
        : [];
      for (const property of Object.keys(schema.properties ?? {})) {
        for (const name of lineage) {
          const text = this.lookup.text(
            propertyDescriptionKey(name, property),
            locale,
          );
          if (text !== undefined) {
            found.set(property, text);
            break;
          }
        }
      }
      return found;
    });
  }

  /** Whether the catalogue has any property description in `locale`. */
  private hasNamespace(locale: string): boolean {
    return memo(this.namespaces, locale, () =>
      this.lookup.has(DTO_NAMESPACE, locale),
    );
  }

  /** The decorated class of a `$defs` name (names are unique: startup checks it). */
  private classNamed(name: string): Function | undefined {
    if (!this.classes) {
      const classes = new Map<string, Function>();
      for (const target of registeredValidationRules().keys()) {
        if (typeof target === 'function') {
          classes.set(target.name, target);
        }
      }
      this.classes = classes;
    }
    return this.classes.get(name);
  }
}

/** The value of `key` in `cache`, made and kept on first use. */
function memo<K, V>(
  cache: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** The names of a class and of its named ancestors, nearest first. */
function classLineage(type: Function): string[] {
  const names: string[] = [];
  for (
    let target: unknown = type;
    typeof target === 'function' && target !== Function.prototype;
    target = Object.getPrototypeOf(target)
  ) {
    if (target.name) {
      names.push(target.name);
    }
  }
  return names;
}

/**
 * A class schema whose properties carry `descriptions`; the same object
 * when none changes, otherwise a frozen copy sharing what did not change.
 */
export function withDescriptions(
  schema: JsonSchema,
  descriptions: Descriptions,
): JsonSchema {
  const properties = schema.properties;
  if (!properties || descriptions.size === 0) {
    return schema;
  }
  let changed: Record<string, JsonSchema> | undefined;
  for (const [property, description] of descriptions) {
    const current = Object.hasOwn(properties, property)
      ? properties[property]
      : undefined;
    if (current && current.description !== description) {
      changed ??= { ...properties };
      changed[property] = Object.freeze({ ...current, description });
    }
  }
  return changed
    ? Object.freeze({ ...schema, properties: Object.freeze(changed) })
    : schema;
}
