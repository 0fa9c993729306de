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
import { formatFailure } from './failure-text.js';
import { OperationResponse } from '../invocation/pipeline/operation-response.js';

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

  it("keeps the app's own message of a 401: SECURITY_DENIED_003: Token expired", () => {
    const failure = toOperationFailure(
      new UnauthorizedException('Token expired'),
    );

    expect(failure?.code).toBe('SECURITY_DENIED_003');
    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_DENIED_003: Token expired',
    );
  });

  it.each([
    new ForbiddenException(),
    new ForbiddenException('Forbidden resource'),
    new HttpException('FORBIDDEN', HttpStatus.FORBIDDEN),
  ])("keeps the library's text of a 403 with a default text (%s)", (error) => {
    const failure = toOperationFailure(error);

    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_DENIED_001: Access denied.',
    );
  });

  it("keeps the library's text where the app's message is the library's English text of the code", () => {
    const failure = toOperationFailure(
      new UnauthorizedException('Authentication is required.'),
    );

    expect(failure?.message).toBeUndefined();
    expect(failure?.key).toBe('nestops.errors.SECURITY_DENIED_003');
  });

  it("keeps the app's own message of a 403", () => {
    const failure = toOperationFailure(
      new ForbiddenException('Only the owner may close account 7.'),
    );

    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_DENIED_001: Only the owner may close account 7.',
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
    new InternalServerErrorException(),
    new BadGatewayException(),
    new HttpException(
      'Internal server error',
      HttpStatus.INTERNAL_SERVER_ERROR,
    ),
    new HttpException(new Error('db password is hunter2'), 500),
    new HttpException({ statusCode: 500 }, 599),
  ])('returns undefined for the 5xx %s with a default text', (error) => {
    expect(toOperationFailure(error)).toBeUndefined();
  });

  it.each([
    [
      new InternalServerErrorException('Ledger is offline.'),
      'INTERNAL_ERROR_002: Ledger is offline.',
    ],
    [
      new HttpException('Bank is down, retry in 30 s', 503),
      'INTERNAL_UNAVAILABLE_001: Bank is down, retry in 30 s',
    ],
    [
      new ServiceUnavailableException(),
      'INTERNAL_UNAVAILABLE_001: The service is unavailable; retry later.',
    ],
  ])(
    "keeps the app's own message of a 5xx, and the library's 503 text (%s)",
    (error, text) => {
      const failure = toOperationFailure(error);

      expect(failure && formatFailure(failure)).toBe(text);
    },
  );

  it('maps 429 to SECURITY_THROTTLED_001 with the Retry-After of the response in the text and the data', () => {
    const headers = new OperationResponse().setHeader('Retry-After', 7);
    const failure = toOperationFailure(
      new HttpException('ThrottlerException: Too Many Requests', 429),
      headers,
    );

    expect(failure?.params).toMatchObject({ retryAfter: 7 });
    expect(failure && formatFailure(failure)).toBe(
      'SECURITY_THROTTLED_001: Too many calls; retry in 7 s.',
    );
  });

  it.each([
    ['0.5', 1],
    ['1.2', 2],
    [' 3 ', 3],
  ])(
    'rounds a Retry-After of %s seconds up, to %i: a client never retries too soon',
    (value, seconds) => {
      const headers = new OperationResponse().setHeader('Retry-After', value);
      const failure = toOperationFailure(
        new HttpException('Too Many Requests', 429),
        headers,
      );

      expect(failure?.params.retryAfter).toBe(seconds);
      expect(failure && formatFailure(failure)).toBe(
        `SECURITY_THROTTLED_001: Too many calls; retry in ${seconds} s.`,
      );
    },
  );

  it('reads the longest Retry-After-<name> of named throttlers, and an HTTP date', () => {
    const named = new OperationResponse()
      .setHeader('Retry-After-short', 2)
      .setHeader('Retry-After-long', '40');
    const dated = new OperationResponse().setHeader(
      'Retry-After',
      new Date(Date.now() + 9_500).toUTCString(),
    );
    const error = new HttpException('Too Many Requests', 429);

    expect(toOperationFailure(error, named)?.params.retryAfter).toBe(40);
    expect(
      toOperationFailure(error, dated)?.params.retryAfter,
    ).toBeGreaterThanOrEqual(8);
    expect(
      toOperationFailure(error, dated)?.params.retryAfter,
    ).toBeLessThanOrEqual(10);
    expect(
      toOperationFailure(error, new OperationResponse())?.params.retryAfter,
    ).toBe(1);
  });

  it.each([
    [
      { code: 'PAYMENTS_FUNDS_001', message: 'Balance 4 is too low.' },
      'PAYMENTS_FUNDS_001: Balance 4 is too low.',
    ],
    [
      { code: 'BUSINESS_CONFLICT_001', message: 'Balance 4 is too low.' },
      'BUSINESS_CONFLICT_001: Balance 4 is too low.',
    ],
    [
      { code: 'PAYMENTS_FUNDS_001' },
      'PAYMENTS_FUNDS_001: Invalid input: Unprocessable Entity',
    ],
    [
      { code: 'insufficient-funds', message: 'Balance 4 is too low.' },
      'VALIDATION_INVALID_001: Invalid input: Balance 4 is too low.',
    ],
    [
      { code: 'SECURITY_DENIED_004', message: 'No.' },
      'SECURITY_DENIED_004: No.',
    ],
  ])("takes a body's code of the form AREA_KIND_NNN (%j)", (body, text) => {
    const failure = toOperationFailure(new HttpException(body, 422));

    expect(failure && formatFailure(failure)).toBe(text);
  });

  // The `errorCode` option of HttpException came with Nest 12; Nest 11
  // ignores it (an app there puts `code` in the body, as tested above).
  const nestErrorCode =
    'errorCode' in
    new UnprocessableEntityException('x', { errorCode: 'X' } as never);

  it.runIf(nestErrorCode)("takes Nest's errorCode option as the code", () => {
    const failure = toOperationFailure(
      new UnprocessableEntityException('Balance 4 is too low.', {
        errorCode: 'PAYMENTS_FUNDS_001',
      } as never),
    );

    expect(failure && formatFailure(failure)).toBe(
      'PAYMENTS_FUNDS_001: Balance 4 is too low.',
    );
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
