import { InvalidArgumentError } from 'commander';
import { parseCredentials } from './cli-options.js';

describe('parseCredentials', () => {
  it.each(['ApiKey dev-alice-key', 'Bearer a b', 'Basic dXNlcjpwYXNz=='])(
    'accepts %j: a scheme, one space, visible ASCII',
    (value) => {
      expect(parseCredentials(value)).toBe(value);
    },
  );

  it.each([
    'ApiKey dev-alice-key\n',
    'ApiKey dev-alice-key\r\nX-Tenant-Id: globex',
    'ApiKey dev\u0000alice',
    'ApiKey dev\talice',
    'ApiKey dev\u007falice',
    'ApiKey\u0001 dev-alice-key',
    'ApiKey dev-alicé-key',
    'ApiKey ',
    'ApiKey',
    ' ApiKey dev-alice-key',
  ])('refuses %j: no control characters, no header injection', (value) => {
    expect(() => parseCredentials(value)).toThrow(InvalidArgumentError);
  });
});
