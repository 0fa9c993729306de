/** Classes, each with the properties its own declaration marks raw. */
const RAW_TEXT_PROPERTIES = new WeakMap<object, Set<string>>();

/**
 * Lets a DTO property take any string: NUL characters and lone UTF-16
 * surrogates, which operation input otherwise refuses with
 * `VALIDATION_INVALID_001`, are accepted in the property's value and in every
 * string nested inside it (array items, nested objects). Meant for text that
 * carries binary-ish data, such as a latin1-encoded blob; the input limits
 * still apply.
 *
 * ```ts
 * class UploadDto {
 *   @IsString()
 *   @AllowRawText()
 *   payload: string;
 * }
 * ```
 *
 * Subclasses inherit it. It records the property in the library's own
 * registry, not as metadata on the class.
 *
 * @publicApi
 */
export function AllowRawText(): PropertyDecorator {
  return (target, propertyKey) => {
    if (typeof propertyKey !== 'string') {
      return;
    }
    const owner = target.constructor;
    const properties = RAW_TEXT_PROPERTIES.get(owner) ?? new Set<string>();
    properties.add(propertyKey);
    RAW_TEXT_PROPERTIES.set(owner, properties);
  };
}

/** The properties of `type` and its ancestors marked with `@AllowRawText()`. */
export function rawTextPropertiesOf(type: object): ReadonlySet<string> {
  const properties = new Set<string>();
  for (
    let current: object | null = type;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current) as object | null
  ) {
    for (const property of RAW_TEXT_PROPERTIES.get(current) ?? []) {
      properties.add(property);
    }
  }
  return properties;
}
