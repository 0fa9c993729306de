/**
 * The first segment of every DTO property key: with nestjs-i18n's JSON
 * loader, the file `<language>/dto.json`.
 *
 * @publicApi
 */
export const DTO_NAMESPACE = 'dto';

/**
 * The message keys of an operation's title and description:
 * `<operation id>.title` and `.description`, with each `-` of the id
 * written `_` (`tenant_members.list.title`).
 *
 * @publicApi
 */
export function operationTextKeys(operationId: string): {
  readonly title: string;
  readonly description: string;
} {
  const base = operationId.replaceAll('-', '_');
  return { title: `${base}.title`, description: `${base}.description` };
}

/**
 * The message key of a DTO property's description:
 * `dto.<class name>.<property>` (`dto.CreateOrderDto.name`), keyed by the
 * class as its schema is, so one text serves every operation and every
 * `$defs` entry that uses the class. Without `property`, the key of the
 * class's group (`dto.CreateOrderDto`).
 *
 * @publicApi
 */
export function propertyDescriptionKey(
  className: string,
  property?: string,
): string {
  return property === undefined
    ? `${DTO_NAMESPACE}.${className}`
    : `${DTO_NAMESPACE}.${className}.${property}`;
}
