import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import {
  BodyTooLargeError,
  declaresTooLarge,
  drainBound,
  endAfterBody,
  isJsonRequest,
  readBody,
} from './request-body.reader.js';

const withType = (type?: string) =>
  ({
    headers: type === undefined ? {} : { 'content-type': type },
  }) as IncomingMessage;

describe('isJsonRequest', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    'application/json; charset=utf-8',
    'application/json ;charset=utf-8',
  ])('accepts %j', (type) => {
    expect(isJsonRequest(withType(type))).toBe(true);
  });

  it.each([
    // A type a browser sends without a CORS preflight, naming JSON later on.
    'text/plain; x=application/json',
    'text/plain;application/json',
    ' application/json',
    'application/jsonp',
    'application/json-seq',
    'application/json5',
    '',
    undefined,
  ])(
    'refuses %j: only application/json itself, from its first character',
    (type) => {
      expect(isJsonRequest(withType(type))).toBe(false);
    },
  );
});

describe('readBody', () => {
  const asRequest = (stream: PassThrough, headers = {}) =>
    Object.assign(stream, { headers }) as unknown as IncomingMessage;

  it('refuses a Content-Length over limit at once, without waiting for the body', async () => {
    const stream = new PassThrough();
    const body = readBody(asRequest(stream, { 'content-length': '7' }), 6);
    await expect(body).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('reads the body as UTF-8, up to and including limit bytes', async () => {
    const stream = new PassThrough();
    const body = readBody(asRequest(stream), 6);
    stream.write(Buffer.from('中', 'utf8').subarray(0, 1));
    stream.end(
      Buffer.concat([
        Buffer.from('中', 'utf8').subarray(1),
        Buffer.from('ok!'),
      ]),
    );
    await expect(body).resolves.toBe('中ok!');
  });

  it('refuses one byte more with BodyTooLargeError', async () => {
    const stream = new PassThrough();
    const body = readBody(asRequest(stream), 6);
    stream.end('1234567');
    await expect(body).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('fails when the request fails (a client that resets), rather than waiting for ever', async () => {
    const stream = new PassThrough();
    const body = readBody(asRequest(stream), 100);
    stream.write('{"jsonrpc":');
    const reset = new Error('aborted');
    stream.destroy(reset);
    await expect(body).rejects.toBe(reset);
  });
});

describe('drainBound', () => {
  it.each([
    [1_048_576, 4_194_304],
    [1000, 1_048_576],
    [262_144, 1_048_576],
    [262_145, 1_048_580],
  ])('limit %d: %d bytes', (limit, bound) => {
    expect(drainBound(limit)).toBe(bound);
  });
});

describe('declaresTooLarge', () => {
  const declaring = (headers: Record<string, string>) =>
    ({ headers }) as IncomingMessage;

  it.each([
    [{ 'content-type': 'application/json', 'content-length': '7' }, true],
    [{ 'content-type': 'application/json', 'content-length': '6' }, false],
    [{ 'content-type': 'application/json' }, false],
    [{ 'content-type': 'text/plain', 'content-length': '7' }, false],
  ])('%j over 6 bytes: %s', (headers, refused) => {
    expect(declaresTooLarge(declaring(headers), 6)).toBe(refused);
  });
});

describe('endAfterBody', () => {
  /** A request's stream, and a response whose `writableEnded` tells whether it was ended. */
  function exchange(headers: Record<string, string> = {}) {
    const stream = new PassThrough();
    const req = Object.assign(stream, {
      headers,
    }) as unknown as IncomingMessage;
    const res = new PassThrough() as unknown as ServerResponse;
    return { stream, req, res };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends the response once the rest of the body is read', async () => {
    const { stream, req, res } = exchange();
    endAfterBody(req, res, 100);
    stream.write('x'.repeat(60));
    await tick();
    expect(res.writableEnded).toBe(false);
    stream.end('x'.repeat(40));
    await tick();
    expect(res.writableEnded).toBe(true);
  });

  it('ends the response once more than the bound is read, the body still coming', async () => {
    const { stream, req, res } = exchange();
    endAfterBody(req, res, 100);
    stream.write('x'.repeat(100));
    await tick();
    expect(res.writableEnded).toBe(false);
    stream.write('x');
    await tick();
    expect(res.writableEnded).toBe(true);
  });

  it('ends the response at once when the declared length is over the bound', () => {
    const { req, res } = exchange({ 'content-length': '101' });
    endAfterBody(req, res, 100);
    expect(res.writableEnded).toBe(true);
  });

  it('ends the response at once when the body is already read', async () => {
    const { stream, req, res } = exchange();
    stream.resume();
    stream.end();
    await tick();
    endAfterBody(req, res, 100);
    expect(res.writableEnded).toBe(true);
  });

  it('ends the response after 5 s of a body that does not end', () => {
    vi.useFakeTimers();
    const { stream, req, res } = exchange();
    endAfterBody(req, res, 100);
    stream.write('x');
    vi.advanceTimersByTime(4_999);
    expect(res.writableEnded).toBe(false);
    vi.advanceTimersByTime(1);
    expect(res.writableEnded).toBe(true);
  });

  it('ends the response when the request is cut', async () => {
    const { stream, req, res } = exchange();
    endAfterBody(req, res, 100);
    stream.destroy();
    await tick();
    expect(res.writableEnded).toBe(true);
  });
});
