import { Injectable } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import {
  type CallHooks,
  OPERATION_KIND,
  type OperationDefinition,
  OperationInvoker,
} from '@nestops/operations/internal';
import { type InputRequired, McpAsking } from '../asking/mcp-asking.js';
import { mcpCallReporter } from './call-notifications.js';
import type { McpCall } from './mcp-call.js';

/**
 * Runs operations (and prompts, completers) for MCP requests
 * (`tools/call`, `resources/read`, `prompts/get`, `completion/complete`)
 * through the one invocation API: the caller's headers, request, locale and
 * timeout, the request's cancellation, response stream, progress and log
 * reporter, its questions to the client and telemetry; the observer is
 * told what it answered.
 */
@Injectable()
export class McpCallInvoker {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly invoker: OperationInvoker,
    private readonly asking: McpAsking,
  ) {}

  /**
   * Runs `definition` (of `kind`, an operation by default) on `target`
   * with `input`; in 2026-07-28 the result may be the questions the call
   * stopped at (`InputRequired`). With `later`, the call stops once it is
   * ready to run and `later` gets the answers so far (a task is made of
   * it): it then fails with `INTERNAL_TASK_001`.
   */
  async invoke(
    call: McpCall,
    definition: OperationDefinition,
    target: string,
    input: unknown,
    kind: string = OPERATION_KIND,
    later?: (answers: ReadonlyMap<string, unknown>) => Promise<string>,
  ): Promise<InvocationResult | InputRequired> {
    const asking = this.asking.begin(call, definition, target, input);
    const runLater = later && (() => later(asking.answers));
    return asking.settle(
      await this.run(call, definition, target, input, kind, {
        asker: asking.asker,
        runLater,
      }),
    );
  }

  /** Runs the completer `definition` for `target`: it asks its client nothing. */
  complete(
    call: McpCall,
    definition: OperationDefinition,
    target: string,
    input: unknown,
  ): Promise<InvocationResult> {
    return this.run(call, definition, target, input, 'completer', {});
  }

  private async run(
    call: McpCall,
    definition: OperationDefinition,
    target: string,
    input: unknown,
    kind: string,
    extra: Pick<CallHooks, 'asker' | 'runLater'>,
  ): Promise<InvocationResult> {
    const { params } = call.request;
    const { caller } = call.transport;
    const options = {
      carrier: 'mcp' as const,
      target,
      headers: caller.headers,
      request: caller.request,
      locale: caller.locale,
      input,
      timeout: caller.timeout,
    };
    const hooks = {
      cancel: call.signal,
      responseStream: call.stream,
      reporter: mcpCallReporter(params, call.logLevel, call.stream),
      observe: call.observer?.observe,
      ...extra,
    };
    const result = await (kind === OPERATION_KIND
      ? this.invoker.invoke(definition.id, options, hooks)
      : this.invoker.invokeCallable(kind, definition.id, options, hooks));
    call.observer?.answered(result);
    return result;
  }
}
