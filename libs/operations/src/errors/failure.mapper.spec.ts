import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { toOperationFailure } from './failure.mapper.js';
import { OperationException } from './operation.exception.js';
import { formatFailure } from './operation-failure.js';

describe('toOperationFailure', () => {
  it('maps a validation BadRequestException to VALIDATION_INVALID_001 with the messages joined', () => {
    const failure = toOperationFailure(
      new BadRequestException([
        'name must be a string',
        'amount must not be less than 1',
      ]),
    );

    expect(failure?.code).toBe('VALIDATION_INVALID_001');
    expect(failure?.key).toBe('nestops.errors.VALIDATION_INVALID_001');
    expect(failure && formatFailure(failure)).toBe(
      'VALIDATION_INVALID_001: Invalid input: name must be a string; amount must not be less than 1',
    );
  });

  it('uses the message of a BadRequestException with a string', () => {
    const failure = toOperationFailure(
      new BadRequestException('amount is odd'),
    );

    expect(failure && formatFailure(failure)).toBe(
      'VALIDATION_INVALID_001: Invalid input: amount is odd',
    );
  });

  it('maps 422 to VALIDATION_INVALID_001', () => {
    expect(
      toOperationFailure(new UnprocessableEntityException(['a is bad']))?.code,
    ).toBe('VALIDATION_INVALID_001');
  });

  it('maps 401 to SECURITY_DENIED_003', () => {
    const failure = toOperationFailure(new UnauthorizedException());

    expect(failure?.code).toBe('SECURITY_DENIED_003');
    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_DENIED_003: Authentication is required.',
    );
  });

  it('maps 403 to SECURITY_DENIED_001 without leaking the detail', () => {
    const failure = toOperationFailure(
      new ForbiddenException('guard internals: role table row 7'),
    );

    expect(failure?.code).toBe('SECURITY_DENIED_001');
    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_DENIED_001: Access denied.',
    );
  });

  it('maps 404 to BUSINESS_NOTFOUND_001 with its message', () => {
    const failure = toOperationFailure(
      new NotFoundException('Order 7 does not exist.'),
    );

    expect(failure?.code).toBe('BUSINESS_NOTFOUND_001');
    expect(failure?.params).toEqual({ detail: 'Order 7 does not exist.' });
    expect(failure && formatFailure(failure)).toBe(
      'BUSINESS_NOTFOUND_001: Order 7 does not exist.',
    );
  });

  it('maps 409 to BUSINESS_CONFLICT_001 with its message', () => {
    const failure = toOperationFailure(
      new ConflictException('Order 7 is shipped.'),
    );

    expect(failure && formatFailure(failure)).toBe(
      'BUSINESS_CONFLICT_001: Order 7 is shipped.',
    );
  });

  it.each([
    new GoneException('It is gone.'),
    new PayloadTooLargeException('It is gone.'),
    new HttpException('It is gone.', HttpStatus.TOO_MANY_REQUESTS),
    new HttpException('It is gone.', HttpStatus.I_AM_A_TEAPOT),
    new HttpException('It is gone.', HttpStatus.PAYMENT_REQUIRED),
  ])('maps any other 4xx (%s) to BUSINESS_REJECTED_001', (error) => {
    const failure = toOperationFailure(error);

    expect(failure?.code).toBe('BUSINESS_REJECTED_001');
    expect(failure && formatFailure(failure)).toBe(
      'BUSINESS_REJECTED_001: It is gone.',
    );
  });

  it('never renders an object response as [object Object]', () => {
    const failure = toOperationFailure(
      new HttpException({ reason: 'nope' }, HttpStatus.CONFLICT),
    );

    expect(failure?.code).toBe('BUSINESS_CONFLICT_001');
    expect(typeof failure?.params.detail).toBe('string');
    expect(String(failure?.params.detail)).not.toContain('[object');
  });

  it.each([
    new InternalServerErrorException('db password is hunter2'),
    new BadGatewayException(),
    new ServiceUnavailableException(),
    new HttpException('boom', HttpStatus.INTERNAL_SERVER_ERROR),
    new HttpException('boom', 599),
  ])('returns undefined for the 5xx %s', (error) => {
    expect(toOperationFailure(error)).toBeUndefined();
  });

  it.each([
    new Error('boom'),
    new TypeError('x is undefined'),
    'a thrown string',
    undefined,
    null,
    { status: 404, message: 'looks like an HttpException' },
    { getStatus: () => 404, getResponse: () => 'duck-typed' },
  ])('returns undefined for the unexpected %s', (error) => {
    expect(toOperationFailure(error)).toBeUndefined();
  });

  it('passes the failure of an OperationException through', () => {
    const error = new OperationException('SECURITY_DENIED_004', {
      permission: 'orders.write',
    });

    const failure = toOperationFailure(error);

    expect(failure).toBe(error.failure);
    expect(failure && formatFailure(failure)).toBe(
      "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
    );
  });

  it('passes an OperationException subclass through', () => {
    class OrderShipped extends OperationException {
      constructor() {
        super('BUSINESS_CONFLICT_001', { detail: 'Order 7 is shipped.' });
      }
    }
    const error = new OrderShipped();

    expect(toOperationFailure(error)).toBe(error.failure);
  });
});
