import { registerDecorator, type ValidationOptions } from 'class-validator';
import { INTEGER_COLUMN_MAX } from '../order.entity';

const BASE64URL = /^[A-Za-z0-9_-]{1,16}$/;
const ID = /^[1-9][0-9]{0,9}$/;

/**
 * A page's `nextCursor`: the position after the page's last order (its id),
 * base64url-encoded so that clients treat it as opaque.
 */
export function encodeOrderCursor(id: number): string {
  return Buffer.from(String(id)).toString('base64url');
}

/** The id a cursor stands for, or undefined when it is not one this app made. */
export function decodeOrderCursor(cursor: string): number | undefined {
  if (!BASE64URL.test(cursor)) {
    return undefined;
  }
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  if (!ID.test(text)) {
    return undefined;
  }
  const id = Number(text);
  return id <= INTEGER_COLUMN_MAX && encodeOrderCursor(id) === cursor
    ? id
    : undefined;
}

/** A string that `decodeOrderCursor()` accepts. */
export function IsOrderCursor(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isOrderCursor',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: '$property must be the nextCursor of an earlier page',
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && decodeOrderCursor(value) !== undefined,
      },
    });
}
