import type { IncomingMessage } from 'node:http';
import { isJsonRequest } from './request-body.reader.js';

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
