import {
  OPERATION_ERRORS,
  type OperationErrorCode,
} from '../errors/error-codes.js';
import type { OperationViolation } from '../errors/operation-failure.js';

/**
 * The namespace of the library's own message keys. In a nestjs-i18n
 * catalogue they live in the file `<language>/nestops.json`, which is how an
 * application overrides any of them (`{ "errors": { "SECURITY_DENIED_004":
 * "..." } }`).
 *
 * @publicApi
 */
export const MESSAGE_NAMESPACE = 'nestops';

/**
 * Texts of the validation constraints the library translates: the common
 * class-validator constraints (keyed by their constraint name) and the
 * input limits the library checks itself. `{property}` is the failing
 * field's path; `{constraint1}`, `{constraint2}` the decorator's arguments,
 * as class-validator's own `$constraint1` placeholders are; `{limit}` an
 * input limit; `required` is a field that is absent, whatever its rules. A
 * constraint missing here keeps class-validator's message.
 */
const VALIDATION_EN_US = {
  required: '{property} is required',
  isDefined: '{property} should not be null or undefined',
  isNotEmpty: '{property} should not be empty',
  isString: '{property} must be a string',
  isNumber:
    '{property} must be a number conforming to the specified constraints',
  isInt: '{property} must be an integer number',
  isBoolean: '{property} must be a boolean value',
  isArray: '{property} must be an array',
  isObject: '{property} must be an object',
  isDate:
    '{property} must be an ISO 8601 date or date-time string (e.g. 2026-12-31 or 2026-12-31T17:00:00Z)',
  isDateString: '{property} must be a valid ISO 8601 date string',
  isIso8601: '{property} must be a valid ISO 8601 date string',
  isEmail: '{property} must be an email',
  isUuid: '{property} must be a UUID',
  isUrl: '{property} must be a URL address',
  isPositive: '{property} must be a positive number',
  isNegative: '{property} must be a negative number',
  min: '{property} must not be less than {constraint1}',
  max: '{property} must not be greater than {constraint1}',
  minLength:
    '{property} must be longer than or equal to {constraint1} characters',
  maxLength:
    '{property} must be shorter than or equal to {constraint1} characters',
  arrayNotEmpty: '{property} should not be empty',
  arrayMinSize: '{property} must contain at least {constraint1} elements',
  arrayMaxSize: '{property} must contain no more than {constraint1} elements',
  isEnum: '{property} must be one of the following values: {constraint2}',
  isIn: '{property} must be one of the following values: {constraint1}',
  matches: '{property} must match {constraint1} regular expression',
  whitelistValidation: 'property {property} should not exist',
  nestedValidation: 'nested property {property} must be either object or array',
  unknownValue: 'an unknown value was passed to the validate function',
  maxDepth: '{property} is nested deeper than {limit} levels',
  maxItems: '{property} has more than {limit} items',
  maxProperties: '{property} has more than {limit} properties',
  maxUnknownProperties:
    '{property} has more than {limit} properties that its DTOs do not declare',
  maxStringLength: '{property} is longer than {limit} characters',
  nulCharacter: '{property} must not contain NUL characters',
  loneSurrogate:
    '{property} must be well-formed Unicode (it has a lone surrogate)',
  propertyNameNulCharacter:
    'a property name in {property} must not contain NUL characters',
  propertyNameLoneSurrogate:
    'a property name in {property} must be well-formed Unicode (it has a lone surrogate)',
} as const;

/**
 * A validation text of the library, under `nestops.validation.<key>` in a
 * catalogue: a class-validator constraint name (`isEmail`, `min`...),
 * `required`, or an input limit (`maxDepth`...).
 *
 * @publicApi
 */
export type ValidationMessageKey = keyof typeof VALIDATION_EN_US;

interface LibraryCatalogue {
  readonly errors: Readonly<Record<OperationErrorCode, string>>;
  readonly validation: Readonly<Record<ValidationMessageKey, string>>;
}

const ZH_CN: LibraryCatalogue = {
  errors: {
    VALIDATION_INVALID_001: '输入无效：{detail}',
    SECURITY_DENIED_001: '拒绝访问。',
    SECURITY_DENIED_002: '此操作的策略拒绝了本次调用。',
    SECURITY_DENIED_003: '需要身份验证。',
    SECURITY_DENIED_004: "缺少权限 '{permission}'。",
    SECURITY_DENIED_005: "租户 '{tenant}' 不属于调用者。",
    SECURITY_THROTTLED_001: '调用过于频繁，请在 {retryAfter} 秒后重试。',
    BUSINESS_NOTFOUND_001: '{detail}',
    BUSINESS_CONFLICT_001: '{detail}',
    BUSINESS_REJECTED_001: '{detail}',
    BUSINESS_CLIENT_001:
      '此调用需要客户端提供 {capability}，而客户端无法应答。',
    BUSINESS_CLIENT_002: '客户端没有对 {question} 给出可用的答复：{detail}',
    BUSINESS_DECLINED_001: '用户拒绝了 {operation}；未做任何更改。',
    BUSINESS_DECLINED_002: '用户取消了 {operation}；未做任何更改。',
    SECURITY_CONFIRMATION_001:
      '{operation} 需要用户确认，而此客户端无法发起确认。',
    INTERNAL_TIMEOUT_001: '操作未能在 {seconds} 秒内完成。',
    INTERNAL_CANCELLED_001: '调用已取消。',
    INTERNAL_INPUT_001: '调用已暂停，等待客户端答复：{questions}。',
    INTERNAL_TASK_001: '调用转为任务 {taskId} 继续运行。',
    INTERNAL_ERROR_001: '发生意外错误（关联 ID {correlationId}）。',
    INTERNAL_ERROR_002: '{detail}',
    INTERNAL_UNAVAILABLE_001: '服务暂时不可用，请稍后重试。',
    INTERNAL_UNAVAILABLE_002:
      '数据库被另一个连接锁定了 {seconds} 秒，请稍后重试。',
    INTERNAL_CONTRACT_001:
      '应用的拦截器改变了 {operation} 的结果，使其不再符合输出约定（关联 ID {correlationId}）。若要让工具调用不受影响，请在其 intercept() 开头加上：if (isOperationCall(context)) return next.handle();',
  },
  validation: {
    required: '{property} 为必填项',
    isDefined: '{property} 不能为 null 或 undefined',
    isNotEmpty: '{property} 不能为空',
    isString: '{property} 必须是字符串',
    isNumber: '{property} 必须是符合要求的数字',
    isInt: '{property} 必须是整数',
    isBoolean: '{property} 必须是布尔值',
    isArray: '{property} 必须是数组',
    isObject: '{property} 必须是对象',
    isDate:
      '{property} 必须是 ISO 8601 日期或日期时间字符串（例如 2026-12-31 或 2026-12-31T17:00:00Z）',
    isDateString: '{property} 必须是有效的 ISO 8601 日期字符串',
    isIso8601: '{property} 必须是有效的 ISO 8601 日期字符串',
    isEmail: '{property} 必须是电子邮件地址',
    isUuid: '{property} 必须是 UUID',
    isUrl: '{property} 必须是 URL 地址',
    isPositive: '{property} 必须是正数',
    isNegative: '{property} 必须是负数',
    min: '{property} 不能小于 {constraint1}',
    max: '{property} 不能大于 {constraint1}',
    minLength: '{property} 的长度不能少于 {constraint1} 个字符',
    maxLength: '{property} 的长度不能超过 {constraint1} 个字符',
    arrayNotEmpty: '{property} 不能为空',
    arrayMinSize: '{property} 至少要有 {constraint1} 个元素',
    arrayMaxSize: '{property} 最多只能有 {constraint1} 个元素',
    isEnum: '{property} 必须是以下值之一：{constraint2}',
    isIn: '{property} 必须是以下值之一：{constraint1}',
    matches: '{property} 必须匹配正则表达式 {constraint1}',
    whitelistValidation: '不允许有属性 {property}',
    nestedValidation: '嵌套属性 {property} 必须是对象或数组',
    unknownValue: '向验证函数传入了未知的值',
    maxDepth: '{property} 的嵌套超过 {limit} 层',
    maxItems: '{property} 的元素超过 {limit} 个',
    maxProperties: '{property} 的属性超过 {limit} 个',
    maxUnknownProperties: '{property} 中 DTO 未声明的属性超过 {limit} 个',
    maxStringLength: '{property} 的长度超过 {limit} 个字符',
    nulCharacter: '{property} 不能包含 NUL 字符',
    loneSurrogate: '{property} 必须是格式正确的 Unicode（含有孤立的代理项）',
    propertyNameNulCharacter: '{property} 中的属性名不能包含 NUL 字符',
    propertyNameLoneSurrogate:
      '{property} 中的属性名必须是格式正确的 Unicode（含有孤立的代理项）',
  },
};

/** The library's own texts, by language. `en-US` is also the last resort. */
export const LIBRARY_MESSAGES: Readonly<Record<string, LibraryCatalogue>> = {
  'en-US': { errors: OPERATION_ERRORS, validation: VALIDATION_EN_US },
  'zh-CN': ZH_CN,
};

/** The language the library falls back to, and answers in without nestjs-i18n. */
export const LIBRARY_LANGUAGE = 'en-US';

/**
 * The library's text for a key of its namespace (`nestops.errors.X`,
 * `nestops.validation.Y`) in `language`, or undefined.
 */
export function libraryText(key: string, language: string): string | undefined {
  const parts = key.split('.');
  if (parts.length !== 3 || parts[0] !== MESSAGE_NAMESPACE) {
    return undefined;
  }
  const catalogue = Object.hasOwn(LIBRARY_MESSAGES, language)
    ? LIBRARY_MESSAGES[language]
    : undefined;
  const section =
    parts[1] === 'errors' || parts[1] === 'validation'
      ? (catalogue?.[parts[1]] as Readonly<Record<string, string>> | undefined)
      : undefined;
  return section && Object.hasOwn(section, parts[2])
    ? section[parts[2]]
    : undefined;
}

/**
 * Fills `{name}` placeholders from `args`, as nestjs-i18n's default
 * formatter does; a placeholder without an argument stays as written.
 */
export function interpolate(
  template: string,
  args: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  );
}

/**
 * A violation of one of the library's own checks (input limits, text),
 * with its English message.
 */
export function libraryViolation(
  property: string,
  constraint: ValidationMessageKey,
  params: Readonly<Record<string, string | number>> = {},
): OperationViolation {
  return {
    property,
    constraint,
    params,
    message: interpolate(VALIDATION_EN_US[constraint], {
      ...params,
      property,
    }),
  };
}
