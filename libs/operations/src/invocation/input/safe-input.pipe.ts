import {
  type ArgumentMetadata,
  BadRequestException,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import { OperationException } from '../../errors/operation.exception.js';
import {
  libraryViolation,
  type ValidationMessageKey,
} from '../../i18n/library-messages.js';
import type { DtoClass } from './input-plan.js';
import { sanitizeInput } from './input.sanitizer.js';

/** Types whose values are not DTOs: their input is checked as it is. */
const NOT_DTOS: ReadonlySet<unknown> = new Set([
  String,
  Number,
  Boolean,
  Array,
  Object,
]);

/**
 * The rules an operation's input gets, for the app's own routes: a body,
 * query or route parameter with NUL or a lone surrogate in a string
 * (except in `@AllowRawText()` properties), a key naming an
 * `Object.prototype` member, or past the input limits is refused with
 * `400` and the messages an operation's failure names, before any
 * handler runs. What it lets through is passed on as it is (after the
 * app's `ValidationPipe`, the DTO instance that pipe made).
 *
 * ```ts
 * @Controller('orders')
 * @UsePipes(SafeInputPipe)
 * export class OrdersController {}
 * ```
 *
 * @publicApi
 */
@Injectable()
export class SafeInputPipe implements PipeTransform {
  /** `value`, once checked; throws `BadRequestException` naming each problem. */
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') {
      return value;
    }
    const type = NOT_DTOS.has(metadata.metatype)
      ? undefined
      : (metadata.metatype as DtoClass | undefined);
    try {
      sanitizeInput(value, type);
      return value;
    } catch (error) {
      if (error instanceof OperationException) {
        throw new BadRequestException(
          (error.failure.violations ?? []).map((violation) =>
            // A parameter's own value is named as the parameter.
            metadata.data && violation.property === 'input'
              ? libraryViolation(
                  metadata.data,
                  violation.constraint as ValidationMessageKey,
                  violation.params,
                ).message
              : violation.message,
          ),
        );
      }
      throw error;
    }
  }
}
