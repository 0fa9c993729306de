import { ForbiddenException, HttpException } from '@nestjs/common';
import { OperationException } from '../../errors/operation.exception.js';
import { OperationResponse } from './operation-response.js';

describe('OperationResponse', () => {
  it("keeps headers as Express's response does: set/header (one or an object), get, setHeader/getHeader, removeHeader", () => {
    const res = new OperationResponse();
    res.set('X-Cache', 'MISS').header('Retry-After', 30);
    res.set({ 'X-RateLimit-Limit': 3, 'X-Tags': ['a', 'b'] });
    res.setHeader('X-Raw', 7);

    expect(res.get('x-cache')).toBe('MISS');
    // Express writes a number as its text with set(); Node's setHeader keeps it.
    expect(res.getHeader('RETRY-AFTER')).toBe('30');
    expect(res.get('x-ratelimit-limit')).toBe('3');
    expect(res.get('x-tags')).toEqual(['a', 'b']);
    expect(res.getHeader('x-raw')).toBe(7);
    expect(res.hasHeader('X-Raw')).toBe(true);
    res.removeHeader('X-RAW');
    expect(res.hasHeader('x-raw')).toBe(false);
    expect(res.getHeaders()).toEqual({
      'x-cache': 'MISS',
      'retry-after': '30',
      'x-ratelimit-limit': '3',
      'x-tags': ['a', 'b'],
    });
    expect(res.headersSent).toBe(false);
  });

  it('has status 200 until set, or until the handler fails', () => {
    const res = new OperationResponse();
    expect(res.statusCode).toBe(200);
    expect(res.status(202).statusCode).toBe(202);
  });

  it.each([
    [new ForbiddenException(), 403],
    [new HttpException('Too Many Requests', 429), 429],
    [new OperationException('VALIDATION_INVALID_001', { detail: 'x' }), 400],
    [new OperationException('SECURITY_DENIED_003'), 401],
    [new OperationException('SECURITY_DENIED_004', { permission: 'p' }), 403],
    [new OperationException('BUSINESS_NOTFOUND_001', { detail: 'x' }), 404],
    [new OperationException('BUSINESS_CONFLICT_001', { detail: 'x' }), 409],
    [new OperationException('BUSINESS_REJECTED_001', { detail: 'x' }), 422],
    [new OperationException('INTERNAL_TIMEOUT_001', { seconds: 1 }), 504],
    [new OperationException('INTERNAL_ERROR_001', { correlationId: 'c' }), 500],
    [new Error('boom'), 500],
  ])('records the status of a failure: %s -> %i', (error, status) => {
    const res = new OperationResponse();
    res.failedWith(error);
    expect(res.statusCode).toBe(status);
  });
});
