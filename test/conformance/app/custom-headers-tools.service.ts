import { Injectable } from '@nestjs/common';
import { Operation } from '@nestops/operations';
import {
  CustomHeadersInput,
  CustomHeadersNullInput,
} from './custom-headers.dto';

/**
 * The suite's tools with `x-mcp-header` arguments (SEP-2243,
 * `http-custom-header-server-validation`): each mirrors some of its
 * arguments in `Mcp-Param-*` headers, which the server checks before it
 * runs them.
 */
@Injectable()
export class CustomHeadersToolsService {
  @Operation({
    id: 'headers.custom',
    readOnly: true,
    description: 'Echoes the region and priority its Mcp-Param headers carry.',
  })
  custom(input: CustomHeadersInput): string {
    return `Custom headers test completed: ${input.region}, ${input.priority}`;
  }

  @Operation({
    id: 'headers.custom-null',
    readOnly: true,
    description: 'Echoes the region; verbose may be null (no header then).',
  })
  customNull(input: CustomHeadersNullInput): string {
    return `Custom headers null test completed: ${input.region}`;
  }
}
