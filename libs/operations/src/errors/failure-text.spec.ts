import { operationFailure } from '../errors/operation-failure.js';
import { describeFailure, type MessageLookup } from './failure-text.js';
import { interpolate, libraryText } from '../i18n/library-messages.js';

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

describe('describeFailure: the texts of calls throttled, unavailable, reshaped', () => {
  it.each<[string, Record<string, string | number>, string, string]>([
    [
      'SECURITY_THROTTLED_001',
      { retryAfter: 7 },
      'SECURITY_THROTTLED_001: Too many calls; retry in 7 s.',
      'SECURITY_THROTTLED_001: 调用过于频繁，请在 7 秒后重试。',
    ],
    [
      'INTERNAL_UNAVAILABLE_001',
      {},
      'INTERNAL_UNAVAILABLE_001: The service is unavailable; retry later.',
      'INTERNAL_UNAVAILABLE_001: 服务暂时不可用，请稍后重试。',
    ],
  ])('%s in en-US and zh-CN', (code, params, english, chinese) => {
    const failure = operationFailure(code as never, params);

    expect(describeFailure(failure)).toBe(english);
    expect(describeFailure(failure, libraryIn('zh-CN'))).toBe(chinese);
  });

  it("shows the app's own message as written, in every language", () => {
    const failure = operationFailure(
      'SECURITY_DENIED_003',
      { detail: 'Token expired' },
      undefined,
      'Token expired',
    );

    expect(describeFailure(failure, libraryIn('zh-CN'))).toBe(
      'SECURITY_DENIED_003: Token expired',
    );
  });

  it('names the isOperationCall fix in zh-CN too', () => {
    const failure = operationFailure('INTERNAL_CONTRACT_001', {
      operation: 'counter.get',
      correlationId: 'c-1',
    });

    expect(describeFailure(failure, libraryIn('zh-CN'))).toContain(
      'counter.get',
    );
    expect(describeFailure(failure, libraryIn('zh-CN'))).toContain(
      'if (isOperationCall(context)) return next.handle();',
    );
  });
});
