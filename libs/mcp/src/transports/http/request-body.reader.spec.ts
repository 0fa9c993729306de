import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import {
  BodyTooLargeError,
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
