import { Module } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { ContentToolsService } from './content-tools.service';
import { CustomHeadersToolsService } from './custom-headers-tools.service';
import { ConformanceResourcesService } from './conformance-resources.service';
import { DiagnosticToolsService } from './diagnostic-tools.service';
import { DiagnosticPromptsService } from './diagnostic-prompts.service';

/**
 * The app the official MCP conformance suite runs against
 * (`npm run test:conformance`): the library's HTTP endpoint with the suite's
 * diagnostic tools and prompts, named as the suite calls them, and its resources.
 */
@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'nestops-conformance',
      serverVersion: '0.1.0',
      instructions: 'The MCP conformance suite diagnostic tools.',
      tools: {
        'diagnostics.simple-text': 'test_simple_text',
        'diagnostics.error-handling': 'test_error_handling',
        'diagnostics.logging': 'test_logging_tool',
        'diagnostics.tool-with-logging': 'test_tool_with_logging',
        'diagnostics.tool-with-progress': 'test_tool_with_progress',
        'diagnostics.streaming-elicitation': 'test_streaming_elicitation',
        'diagnostics.json-schema': 'json_schema_2020_12_tool',
        'content.image': 'test_image_content',
        'content.audio': 'test_audio_content',
        'content.embedded-resource': 'test_embedded_resource',
        'content.mixed': 'test_multiple_content_types',
        'headers.custom': 'test_custom_headers',
        'headers.custom-null': 'test_custom_headers_null',
      },
    }),
  ],
  providers: [
    DiagnosticToolsService,
    DiagnosticPromptsService,
    ContentToolsService,
    CustomHeadersToolsService,
    ConformanceResourcesService,
  ],
})
export class ConformanceModule {}
