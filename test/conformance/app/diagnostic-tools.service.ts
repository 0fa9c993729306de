import { Injectable, Logger } from '@nestjs/common';
import {
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import { NameForm } from './asking.dto';
import { JsonSchema2020Input } from './json-schema-2020.dto';

/**
 * The conformance suite's diagnostic tools, as far as the library can serve
 * them: each is an ordinary operation, its tool name set by the module's
 * `tools` option (operation ids have no `_`). The tools that ask the client
 * mid-call are in `asking-tools.service.ts` and
 * `input-required-tools.service.ts`.
 */
@Injectable()
export class DiagnosticToolsService {
  private readonly logger = new Logger('DiagnosticTools');

  /** `tools-call-simple-text`: a result whose text content is its JSON. */
  @Operation({
    id: 'diagnostics.simple-text',
    readOnly: true,
    description: 'Returns a short text.',
  })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  /** `tools-call-error`: a failure is a result with `isError: true`. */
  @Operation({
    id: 'diagnostics.error-handling',
    readOnly: true,
    description: 'Always fails, with a text that says so.',
  })
  errorHandling(): never {
    throw new OperationException('BUSINESS_CONFLICT_001', {
      detail: 'This tool intentionally returns an error for testing.',
    });
  }

  /**
   * `tools-call-with-logging`: three log messages at `info`, 50 ms apart,
   * sent to a client that asked for `info` or lower.
   */
  @Operation({
    input: null,
    id: 'diagnostics.tool-with-logging',
    readOnly: true,
    description: 'Sends three log messages while it runs, then returns.',
  })
  async toolWithLogging(
    _input: unknown,
    context: InvocationContext,
  ): Promise<string> {
    context.log('info', 'Tool execution started');
    await pause(50);
    context.log('info', 'Tool processing data');
    await pause(50);
    context.log('info', 'Tool execution completed');
    return 'Logging completed.';
  }

  /** `tools-call-with-progress`: 0, 50 and 100 of 100, 50 ms apart. */
  @Operation({
    input: null,
    id: 'diagnostics.tool-with-progress',
    readOnly: true,
    description:
      'Reports its progress three times while it runs, then returns.',
  })
  async toolWithProgress(
    _input: unknown,
    context: InvocationContext,
  ): Promise<string> {
    context.reportProgress(0, 100);
    await pause(50);
    context.reportProgress(50, 100);
    await pause(50);
    context.reportProgress(100, 100);
    return 'Progress completed.';
  }

  /**
   * `server-stateless`'s no-log-without-logLevel check: the tool logs, on the
   * server's own log. The library sends no `notifications/message`, with or
   * without a requested log level, so the caller sees the result only.
   */
  @Operation({
    id: 'diagnostics.logging',
    readOnly: true,
    description: 'Logs three lines on the server, then returns.',
  })
  logging(): { logged: number } {
    for (const line of ['started', 'processing', 'completed']) {
      this.logger.log(`Tool execution ${line}`);
    }
    return { logged: 3 };
  }

  /**
   * `server-stateless`'s no-independent-requests check: the tool asks the
   * user's name. In 2026-07-28 the question is the call's `input_required`
   * result, never a request of the server's on the response stream.
   */
  @Operation({
    id: 'diagnostics.streaming-elicitation',
    readOnly: true,
    input: null,
    description: "Asks the user's name, then greets them.",
    elicits: [NameForm],
  })
  async streamingElicitation(
    _input: unknown,
    context: InvocationContext,
  ): Promise<{ greeted: string | null }> {
    const answer = await context.elicit(NameForm, 'What is your name?', {
      key: 'user_name',
    });
    return { greeted: answer.action === 'accept' ? answer.content.name : null };
  }

  /** `json-schema-2020-12`: the input schema keeps the 2020-12 keywords. */
  @Operation({
    id: 'diagnostics.json-schema',
    readOnly: true,
    description: 'Tool with JSON Schema 2020-12 features.',
    input: JsonSchema2020Input,
  })
  jsonSchema(input: JsonSchema2020Input): { name: string | null } {
    return { name: input.name ?? null };
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((settle) => setTimeout(settle, ms));
}
