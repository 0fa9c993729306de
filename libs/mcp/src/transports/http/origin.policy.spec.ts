import { isOriginAllowed } from './origin.policy.js';

describe('isOriginAllowed', () => {
  describe('without a list (loopback only)', () => {
    it.each([
      'http://localhost',
      'http://localhost:3000',
      'https://localhost',
      'https://localhost:8443',
      'http://127.0.0.1',
      'http://127.0.0.1:5173',
      'https://127.0.0.1:1',
      'http://[::1]',
      'http://[::1]:8080',
      'https://[::1]:65535',
      'http://LOCALHOST:3000',
    ])('allows %s', (origin) => {
      expect(isOriginAllowed(origin, undefined)).toBe(true);
    });

    it.each([
      'https://example.com',
      'http://evil.com:3000',
      'http://192.168.1.10:3000',
      'http://10.0.0.1',
      'http://0.0.0.0:3000',
      'http://[::2]:3000',
      'null',
      '',
      'garbage',
      'localhost',
      'localhost:3000',
      '//localhost:3000',
      'http://localhost.evil.com',
      'http://localhost.evil.com:3000',
      'http://127.0.0.1.evil.com',
      'http://localhost@evil.com',
      'http://evil.com#localhost',
      'file://',
      'file:///etc/passwd',
      'file://localhost/etc/passwd',
      'ws://localhost:3000',
      'chrome-extension://abcdefghijklmnop',
      'ftp://127.0.0.1',
    ])('rejects %j', (origin) => {
      expect(isOriginAllowed(origin, undefined)).toBe(false);
    });
  });

  describe('with an explicit list', () => {
    const allowed = ['https://app.example.com', 'http://localhost:4200'];

    it.each(allowed)('allows the listed %s', (origin) => {
      expect(isOriginAllowed(origin, allowed)).toBe(true);
    });

    it.each([
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://APP.EXAMPLE.COM',
      'https://app.example.com.evil.com',
      'https://evil.app.example.com',
      'https://app.example.co',
      'http://localhost:4201',
      'http://localhost',
      'http://127.0.0.1:3000',
      'null',
      '*',
      '',
    ])('rejects the unlisted %j (exact match only)', (origin) => {
      expect(isOriginAllowed(origin, allowed)).toBe(false);
    });

    it('allows nothing with an empty list, not even loopback', () => {
      expect(isOriginAllowed('http://localhost:3000', [])).toBe(false);
      expect(isOriginAllowed('https://example.com', [])).toBe(false);
    });

    it.each([
      'https://anything.example',
      'http://localhost:3000',
      'null',
      'garbage',
    ])("'*' allows %j", (origin) => {
      expect(isOriginAllowed(origin, ['*'])).toBe(true);
      expect(isOriginAllowed(origin, ['https://app.example.com', '*'])).toBe(
        true,
      );
    });
  });
});
