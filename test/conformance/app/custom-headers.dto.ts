import { McpHeader } from '@nestops/mcp';
import { JSONSchema } from '@nestops/operations';
import {
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
} from 'class-validator';

/** `test_custom_headers`' arguments, as the suite's `http-custom-headers` scenario lists them. */
export class CustomHeadersInput {
  @McpHeader('Region')
  @IsString()
  region: string;

  @McpHeader('Priority')
  @IsInt()
  priority: number;

  @McpHeader('Verbose')
  @IsOptional()
  @IsBoolean()
  verbose?: boolean;

  @McpHeader('Debug')
  @IsOptional()
  @IsBoolean()
  debug?: boolean;

  @McpHeader('EmptyVal')
  @IsOptional()
  @IsString()
  empty_val?: string;

  @McpHeader('Method')
  @IsOptional()
  @IsString()
  method_val?: string;

  @JSONSchema({ description: 'Not mirrored in a header.' })
  @IsOptional()
  @IsNumber()
  float_val?: number;

  @McpHeader('NonAscii')
  @IsOptional()
  @IsString()
  non_ascii_val?: string;

  @McpHeader('Whitespace')
  @IsOptional()
  @IsString()
  whitespace_val?: string;

  @McpHeader('LeadingSpace')
  @IsOptional()
  @IsString()
  leading_space_val?: string;

  @McpHeader('TrailingSpace')
  @IsOptional()
  @IsString()
  trailing_space_val?: string;

  @McpHeader('InternalSpace')
  @IsOptional()
  @IsString()
  internal_space_val?: string;

  @McpHeader('ControlChar')
  @IsOptional()
  @IsString()
  control_char_val?: string;

  @McpHeader('CrLf')
  @IsOptional()
  @IsString()
  crlf_val?: string;

  @McpHeader('Tab')
  @IsOptional()
  @IsString()
  tab_val?: string;

  @IsString()
  query: string;
}

/** `test_custom_headers_null`'s arguments: `verbose` may be null, its header then left out. */
export class CustomHeadersNullInput {
  @McpHeader('Region')
  @IsString()
  region: string;

  @McpHeader('Priority')
  @IsInt()
  priority: number;

  @McpHeader('Verbose')
  @IsOptional()
  @IsBoolean()
  verbose?: boolean | null;

  @IsString()
  query: string;
}
