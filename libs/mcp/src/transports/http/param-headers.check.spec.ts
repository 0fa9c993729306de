import type { ParamHeader } from '../../headers/param-headers.js';
import { paramHeadersRefusal } from './param-headers.check.js';

const DECLARED: readonly ParamHeader[] = [
  {
    property: 'region',
    name: 'Region',
    type: 'string',
  },
  {
    property: 'priority',
    name: 'Priority',
    type: 'integer',
  },
  {
    property: 'verbose',
    name: 'Verbose',
    type: 'boolean',
  },
];
const b64 = (text: string) =>
  `=?base64?${Buffer.from(text).toString('base64')}?=`;

/** The refusal's text, or undefined when the headers are accepted. */
const refusal = (
  headers: Record<string, string>,
  args: Record<string, unknown>,
) => paramHeadersRefusal(headers, DECLARED, args)?.message;

describe('paramHeadersRefusal (SEP-2243 Mcp-Param-* against the arguments)', () => {
  it('accepts headers equal to the arguments: plain, base64 decoded, an integer as a number, a boolean as true/false', () => {
    expect(
      refusal(
        {
          'mcp-param-region': '  us-west1 ',
          'mcp-param-priority': '42',
          'mcp-param-verbose': 'false',
        },
        { region: 'us-west1', priority: 42, verbose: false },
      ),
    ).toBeUndefined();
    expect(
      refusal(
        {
          'mcp-param-region': b64('Hello, 世界'),
          'mcp-param-priority': '42.0',
        },
        { region: 'Hello, 世界', priority: 42 },
      ),
    ).toBeUndefined();
    // Without the whole =?base64?...?= wrapper a value is literal.
    expect(
      refusal(
        { 'mcp-param-region': '=?base64?SGVsbG8=', 'mcp-param-priority': '1' },
        { region: '=?base64?SGVsbG8=', priority: 1 },
      ),
    ).toBeUndefined();
  });

  it('refuses a header that does not match its argument', () => {
    expect(
      refusal(
        { 'mcp-param-region': 'eu-west1', 'mcp-param-priority': '1' },
        { region: 'us-west1', priority: 1 },
      ),
    ).toBe(
      'Header mismatch: the Mcp-Param-Region header value "eu-west1" does not match the argument region, "us-west1".',
    );
    expect(
      refusal(
        { 'mcp-param-region': 'x', 'mcp-param-priority': '0x1' },
        { region: 'x', priority: 1 },
      ),
    ).toMatch(/Mcp-Param-Priority header value "0x1" does not match/);
    expect(
      refusal(
        { 'mcp-param-region': 'x', 'mcp-param-verbose': 'TRUE' },
        { region: 'x', verbose: true },
      ),
    ).toMatch(/Mcp-Param-Verbose header value "TRUE" does not match/);
  });

  it('refuses a missing header for a given argument, and a header for an absent or null one', () => {
    expect(refusal({}, { region: 'x' })).toBe(
      'Header mismatch: the Mcp-Param-Region header is missing; it mirrors the argument region.',
    );
    expect(
      refusal(
        { 'mcp-param-region': 'x', 'mcp-param-verbose': 'true' },
        { region: 'x', verbose: null },
      ),
    ).toBe(
      'Header mismatch: the Mcp-Param-Verbose header is sent but the argument verbose is null.',
    );
    expect(
      refusal(
        { 'mcp-param-region': 'x', 'mcp-param-priority': '1' },
        { region: 'x' },
      ),
    ).toBe(
      'Header mismatch: the Mcp-Param-Priority header is sent but the argument priority is absent.',
    );
    // Absent and null arguments need no header.
    expect(
      refusal({ 'mcp-param-region': 'x' }, { region: 'x', verbose: null }),
    ).toBeUndefined();
  });

  it('refuses bad base64 and characters a plain value cannot hold', () => {
    expect(
      refusal(
        { 'mcp-param-region': '=?base64?SGVsbG8?=' },
        { region: 'Hello' },
      ),
    ).toBe(
      "Header mismatch: the Mcp-Param-Region header's =?base64?...?= value is not base64 of UTF-8 text.",
    );
    expect(
      refusal(
        { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' },
        { region: 'Hello' },
      ),
    ).toMatch(/not base64 of UTF-8 text/);
    expect(refusal({ 'mcp-param-region': 'Grüße' }, { region: 'Grüße' })).toBe(
      'Header mismatch: the Mcp-Param-Region header holds characters a plain value cannot; encode it as =?base64?...?=.',
    );
  });
});
