import { type Command, InvalidArgumentError, Option } from 'commander';

/** The context options shared by `invoke` and `mcp`, as commander parsed them. */
export interface ContextOptions {
  readonly authorization?: string;
  readonly tenant?: string;
  readonly correlation?: string;
  readonly locale?: string;
  /** Milliseconds. */
  readonly timeout?: number;
}

/** `<scheme> <value>`: visible ASCII, one space between. */
const CREDENTIALS = /^[\x21-\x7e]+ [\x20-\x7e]*[\x21-\x7e]$/;
/** As the operations library accepts `X-Tenant-Id` and `X-Correlation-Id`. */
const IDENTIFIER = /^[\x21-\x7e]{1,128}$/;
/** One BCP 47 language tag: `zh-CN`, `en`, `sr-Latn-RS`. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

export function parseCredentials(value: string): string {
  if (!CREDENTIALS.test(value)) {
    throw new InvalidArgumentError(
      "credentials must be '<scheme> <value>' in visible ASCII, e.g. 'ApiKey dev-alice-key'",
    );
  }
  return value;
}

export function parseIdentifier(value: string): string {
  if (!IDENTIFIER.test(value)) {
    throw new InvalidArgumentError('must be 1 to 128 visible ASCII characters');
  }
  return value;
}

export function parseLocale(value: string): string {
  if (!LANGUAGE_TAG.test(value)) {
    throw new InvalidArgumentError('must be a language tag such as zh-CN');
  }
  return value;
}

/** A positive number of seconds, in milliseconds. */
export function parseTimeout(value: string): number {
  const seconds = /^\s*\d*\.?\d+(e[+-]?\d+)?\s*$/i.test(value)
    ? Number(value)
    : Number.NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new InvalidArgumentError('must be a positive number of seconds');
  }
  return seconds * 1000;
}

/** Adds the context options of a call to `command`. */
export function withContextOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--authorization <credentials>',
        "credentials, '<scheme> <value>'",
      )
        .env('MCP_AUTHORIZATION')
        .argParser(parseCredentials),
    )
    .addOption(
      new Option('--tenant <id>', 'the tenant of every call').argParser(
        parseIdentifier,
      ),
    )
    .addOption(
      new Option(
        '--correlation <id>',
        'the correlation id of every call',
      ).argParser(parseIdentifier),
    )
    .addOption(
      new Option(
        '--locale <locale>',
        'language of titles, descriptions and failure texts, e.g. zh-CN',
      ).argParser(parseLocale),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'limit of each call, in seconds',
      ).argParser(parseTimeout),
    );
}

/** The carrier headers of a session's calls. */
export function contextHeaders(
  options: ContextOptions,
): Record<string, string> {
  return {
    ...(options.authorization !== undefined
      ? { authorization: options.authorization }
      : {}),
    ...(options.tenant !== undefined ? { 'x-tenant-id': options.tenant } : {}),
    ...(options.correlation !== undefined
      ? { 'x-correlation-id': options.correlation }
      : {}),
  };
}

/** The JSON input of `invoke`: an object. */
export function parseInput(value: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('the input is not JSON');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidArgumentError('the input must be a JSON object');
  }
  return input as Record<string, unknown>;
}
