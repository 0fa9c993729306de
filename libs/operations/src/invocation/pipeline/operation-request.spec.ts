import type { CarrierRequest } from '../call/invocation-options.interface.js';
import type { InvocationContext } from '../../interfaces/operation-contract.js';
import { createOperationRequest, invocationOf } from './operation-request.js';

const CONTEXT = { correlationId: 'c-1' } as unknown as InvocationContext;

/** Carrier headers that count how often their names are listed. */
function countedHeaders(
  headers: Record<string, string | string[] | undefined>,
) {
  const listed = { count: 0 };
  const carrier = new Proxy(headers, {
    ownKeys(target) {
      listed.count++;
      return Reflect.ownKeys(target);
    },
  });
  return { carrier, listed };
}

function requestOver(
  headers: Record<string, string | string[] | undefined>,
  origin?: CarrierRequest,
) {
  return createOperationRequest(headers, origin, { a: 1 }, () => CONTEXT);
}

describe('createOperationRequest', () => {
  it("shows the carrier request's caller and endpoint, with the input as the body", () => {
    const origin = {
      method: 'POST',
      originalUrl: '/mcp?x=1',
      url: '/x=1',
      path: '/mcp',
      ip: '10.0.0.7',
      ips: ['10.0.0.7', '10.0.0.1'],
      hostname: 'api.example.com',
      protocol: 'https',
    };
    const request = requestOver({}, origin);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/mcp?x=1');
    expect(request.originalUrl).toBe('/mcp?x=1');
    expect(request.path).toBe('/mcp');
    expect(request.ip).toBe('10.0.0.7');
    expect(request.ips).toEqual(['10.0.0.7', '10.0.0.1']);
    expect(request.hostname).toBe('api.example.com');
    expect(request.protocol).toBe('https');
    expect(request.body).toEqual({ a: 1 });
    expect(request.params).toEqual({});
    expect(request.query).toEqual({});
    expect(invocationOf(request)).toBe(CONTEXT);
    expect(invocationOf({})).toBeUndefined();
    // No `user` until a guard sets one, as on an HTTP request.
    expect('user' in request).toBe(false);
    request.user = { id: 'alice' };
    expect(request.user).toEqual({ id: 'alice' });
  });

  it("copies the carrier's addresses, frozen: a call cannot change them", () => {
    const origin = { ips: ['10.0.0.7'] };
    const request = requestOver({}, origin);
    expect(Object.isFrozen(request.ips)).toBe(true);
    expect(request.ips).not.toBe(origin.ips);
    expect(request.ips).toBe(request.ips);
    expect(() => (request.ips as string[]).push('10.6.6.6')).toThrow(TypeError);
    expect(origin.ips).toEqual(['10.0.0.7']);
  });

  it('takes url from a carrier request that has no originalUrl', () => {
    expect(requestOver({}, { url: '/mcp' }).originalUrl).toBe('/mcp');
  });

  it('has no caller or endpoint without a carrier request (stdio, the command line)', () => {
    const request = requestOver({});
    for (const name of [
      'method',
      'url',
      'originalUrl',
      'path',
      'ip',
      'hostname',
      'protocol',
    ] as const) {
      expect(request[name]).toBeUndefined();
    }
    expect(request.ips).toEqual([]);
    expect(Object.isFrozen(request.ips)).toBe(true);
  });

  it('gives the headers with lower-case names, repeated values joined, frozen', () => {
    const request = requestOver({
      Authorization: 'ApiKey k',
      'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      'x-absent': undefined,
    });
    expect({ ...request.headers }).toEqual({
      authorization: 'ApiKey k',
      'x-forwarded-for': '10.0.0.1, 10.0.0.2',
    });
    expect(Object.isFrozen(request.headers)).toBe(true);
    expect(request.headers).toBe(request.headers);
    // An own, enumerable property, as on an HTTP request.
    expect(Object.keys(request)).toContain('headers');
    expect({ ...request }.headers).toBe(request.headers);
  });

  it('never lets a call change the carrier headers', () => {
    const carrier = { authorization: 'ApiKey alice' };
    const request = requestOver(carrier);
    expect(() => {
      (request.headers as Record<string, string>).authorization = 'ApiKey root';
    }).toThrow(TypeError);
    expect(carrier.authorization).toBe('ApiKey alice');
    expect(request.get('authorization')).toBe('ApiKey alice');
  });

  it('reads a header by its name in any case with get() and header()', () => {
    const request = requestOver({
      authorization: 'ApiKey k',
      'X-Tenant-Id': 't-1',
      cookie: ['a=1', 'b=2'],
    });
    expect(request.get('Authorization')).toBe('ApiKey k');
    expect(request.header('AUTHORIZATION')).toBe('ApiKey k');
    expect(request.get('x-tenant-id')).toBe('t-1');
    expect(request.get('cookie')).toBe('a=1, b=2');
    expect(request.get('x-missing')).toBeUndefined();
  });

  it('answers no header for the names of Object.prototype members', () => {
    const request = requestOver({ authorization: 'ApiKey k' });
    for (const name of [
      'constructor',
      'toString',
      '__proto__',
      'hasOwnProperty',
    ]) {
      expect(request.get(name)).toBeUndefined();
      expect(request.headers[name]).toBeUndefined();
    }
  });

  it('copies no header when the call only reads them with get()', () => {
    const { carrier, listed } = countedHeaders({
      authorization: 'ApiKey k',
      accept: 'application/json',
      'content-length': '80',
    });
    const request = requestOver(carrier);
    expect(request.get('authorization')).toBe('ApiKey k');
    expect(request.header('Accept')).toBe('application/json');
    expect(listed.count).toBe(0);
    expect(request.headers.authorization).toBe('ApiKey k');
    expect(request.headers['content-length']).toBe('80');
    expect(listed.count).toBe(1);
    void request.headers;
    expect(request.get('content-length')).toBe('80');
    expect(listed.count).toBe(1);
  });
});

describe('createOperationRequest: repeated headers through get()', () => {
  it('joins every value of a repeated header, before and after headers is read', () => {
    const request = requestOver({
      'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
    });

    expect(request.get('x-forwarded-for')).toBe('10.0.0.1, 10.0.0.2');
    expect(request.header('X-Forwarded-For')).toBe('10.0.0.1, 10.0.0.2');
    expect(request.headers['x-forwarded-for']).toBe('10.0.0.1, 10.0.0.2');
    expect(request.get('x-forwarded-for')).toBe('10.0.0.1, 10.0.0.2');
  });
});
