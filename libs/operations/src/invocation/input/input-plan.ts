import { getMetadataStorage } from 'class-validator';
import {
  type TypeMetadata,
  typeMetadataOf,
} from '../../nest/class-transformer.adapter.js';
import { rawTextPropertiesOf } from './allow-raw-text.decorator.js';

/** A DTO class, as class-transformer and class-validator see it. */
export type DtoClass = Function;

/**
 * What the input sanitizer needs to know about one DTO class before
 * class-transformer has turned the input into it: which properties take any
 * text, and which class a property's value becomes.
 */
export class InputPlan {
  private static readonly plans = new WeakMap<DtoClass, InputPlan>();

  private readonly rawText: ReadonlySet<string>;
  private readonly members: ReadonlySet<string>;
  private readonly declared: ReadonlySet<string>;
  /** class-transformer's `@Type()` of each property, looked up once. */
  private readonly types = new Map<string, TypeMetadata | undefined>();

  private constructor(private readonly type: DtoClass) {
    this.rawText = rawTextPropertiesOf(type);
    this.members = unassignableMembersOf(type);
    this.declared = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((metadata) => metadata.propertyName),
    );
  }

  /** The plan of `type`, computed once per class. */
  static of(type: DtoClass): InputPlan {
    let plan = InputPlan.plans.get(type);
    if (!plan) {
      plan = new InputPlan(type);
      InputPlan.plans.set(type, plan);
    }
    return plan;
  }

  /** Whether `property` is marked with `@AllowRawText()`. */
  allowsRawText(property: string): boolean {
    return this.rawText.has(property);
  }

  /** Whether class-validator knows `key` (else the whitelist reports it). */
  declares(key: string): boolean {
    return this.declared.has(key);
  }

  /**
   * Whether `key` names a method or read-only accessor of the class, which
   * class-transformer would skip without a word.
   */
  isMember(key: string): boolean {
    return this.members.has(key);
  }

  /**
   * The class that `value`, found under `property` of `parent`, becomes with
   * `@Type()` (per item for an array), or undefined when it stays plain.
   */
  classOf(
    property: string,
    parent: object,
    value: unknown,
  ): DtoClass | undefined {
    const metadata = this.typeOf(property);
    if (!metadata) {
      return undefined;
    }
    const discriminator = metadata.options?.discriminator;
    if (discriminator && typeof value === 'object' && value !== null) {
      const name = (value as Record<string, unknown>)[discriminator.property];
      const subType = discriminator.subTypes.find((sub) => sub.name === name);
      if (subType) {
        return subType.value;
      }
    }
    try {
      const type = metadata.typeFunction({
        newObject: {},
        object: parent as Record<string, unknown>,
        property,
      });
      return typeof type === 'function' ? type : undefined;
    } catch {
      return undefined;
    }
  }

  private typeOf(property: string): TypeMetadata | undefined {
    if (!this.types.has(property)) {
      this.types.set(property, typeMetadataOf(this.type, property));
    }
    return this.types.get(property);
  }
}

/** Methods and getter-only accessors of `type`'s prototypes, below `Object.prototype`. */
function unassignableMembersOf(type: DtoClass): ReadonlySet<string> {
  const members = new Set<string>();
  for (
    let proto = type.prototype as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const [key, descriptor] of Object.entries(
      Object.getOwnPropertyDescriptors(proto),
    )) {
      if (
        typeof descriptor.value === 'function' ||
        (descriptor.get && !descriptor.set)
      ) {
        members.add(key);
      }
    }
  }
  members.delete('constructor');
  return members;
}
