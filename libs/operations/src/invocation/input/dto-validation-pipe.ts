import { type Type, ValidationPipe } from '@nestjs/common';
import { OperationException } from '../../errors/operation.exception.js';
import { violationsOf } from './validation-violations.js';

/**
 * Validates a value as the DTO class `type`, as an operation's input is
 * validated: transformed to an instance, unknown properties refused, each
 * failing field named in a `VALIDATION_INVALID_001` failure.
 */
export function dtoValidationPipe(type: Type<unknown>): ValidationPipe {
  return new ValidationPipe({
    expectedType: type,
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // The failing object's class names the constraints' arguments.
    validationError: { target: true, value: false },
    exceptionFactory: (errors) =>
      OperationException.invalid(violationsOf(errors)),
  });
}

/** One pipe per DTO class, made when first asked. */
const pipes = new WeakMap<Type<unknown>, ValidationPipe>();

/** `dtoValidationPipe(type)`, made once per class. */
export function validationPipeOf(type: Type<unknown>): ValidationPipe {
  let pipe = pipes.get(type);
  if (!pipe) {
    pipe = dtoValidationPipe(type);
    pipes.set(type, pipe);
  }
  return pipe;
}
