import { operationFailure } from '../errors/operation-failure.js';
import { describeFailure, type MessageLookup } from './failure-text.js';
import { interpolate, libraryText } from './library-messages.js';

/** The library's own catalogue in `language`: what a caller in it gets without app texts. */
const libraryIn =
  (language: string): MessageLookup =>
  (key, args) => {
    const text = libraryText(key, language);
    return text === undefined ? undefined : interpolate(text, args);
  };

describe('describeFailure: a custom key the catalogue lacks', () => {
  it("falls back to the code's text in the caller's language, not to English", () => {
    const failure = operationFailure(
      'SECURITY_DENIED_004',
      { permission: 'orders.write' },
      'app.errors.no_such_key',
    );

    expect(describeFailure(failure, libraryIn('zh-CN'))).toBe(
      "SECURITY_DENIED_004: 缺少权限 'orders.write'。",
    );
    expect(describeFailure(failure)).toBe(
      "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
    );
  });

  it("uses English only where the caller's language has no text for the code either", () => {
    const failure = operationFailure(
      'SECURITY_DENIED_003',
      {},
      'app.errors.no_such_key',
    );

    expect(describeFailure(failure, libraryIn('fr-FR'))).toBe(
      'SECURITY_DENIED_003: Authentication is required.',
    );
  });
});
