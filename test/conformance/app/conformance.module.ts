import { Module } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { AskingToolsService } from './asking-tools.service';
import { ContentToolsService } from './content-tools.service';
import { CustomHeadersToolsService } from './custom-headers-tools.service';
import { ConformanceResourcesService } from './conformance-resources.service';
import { DiagnosticToolsService } from './diagnostic-tools.service';
import { DiagnosticPromptsService } from './diagnostic-prompts.service';
import { InputRequiredToolsService } from './input-required-tools.service';
import { TasksToolsService } from './tasks-tools.service';

/**
 * The secret the fixture seals its 2026-07-28 `requestState` with. A real
 * app reads its own from its secrets (`openssl rand -base64 32`).
 */
const STATE_KEY = 'conformance-fixture-request-state-key-0123456789';

/**
 * The app the official MCP conformance suite runs against
 * (`npm run test:conformance`): the library's HTTP endpoint with the suite's
 * diagnostic tools and prompts, named as the suite calls them, and its
 * resources; the tools and prompt that ask the client mid-call seal their
 * 2026-07-28 `requestState` with `asking.stateKeys`.
 */
@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'nestops-conformance',
      serverVersion: '0.1.0',
      instructions: 'The MCP conformance suite diagnostic tools.',
      asking: { stateKeys: [STATE_KEY] },
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
        'asking.elicitation': 'test_elicitation',
        'asking.sampling': 'test_sampling',
        'asking.sep1034-defaults': 'test_elicitation_sep1034_defaults',
        'asking.sep1330-enums': 'test_elicitation_sep1330_enums',
        'asking.missing-capability': 'test_missing_capability',
        'input-required.elicitation': 'test_input_required_result_elicitation',
        'input-required.sampling': 'test_input_required_result_sampling',
        'input-required.list-roots': 'test_input_required_result_list_roots',
        'input-required.request-state':
          'test_input_required_result_request_state',
        'input-required.tampered-state':
          'test_input_required_result_tampered_state',
        'input-required.multiple-inputs':
          'test_input_required_result_multiple_inputs',
        'input-required.multi-round': 'test_input_required_result_multi_round',
        'input-required.capabilities':
          'test_input_required_result_capabilities',
        'tasks.greet': 'greet',
        'tasks.slow-compute': 'slow_compute',
        'tasks.failing-job': 'failing_job',
        'tasks.protocol-error-job': 'protocol_error_job',
        'tasks.confirm-delete': 'confirm_delete',
        'tasks.multi-input': 'multi_input',
        'tasks.with-task': 'test_tool_with_task',
      },
    }),
  ],
  providers: [
    DiagnosticToolsService,
    DiagnosticPromptsService,
    ContentToolsService,
    CustomHeadersToolsService,
    ConformanceResourcesService,
    AskingToolsService,
    InputRequiredToolsService,
    TasksToolsService,
  ],
})
export class ConformanceModule {}
