import type { InvocationResult } from '@nestops/operations';
import {
  OPERATION_KIND,
  type OperationInvoker,
} from '@nestops/operations/internal';
import { mcpCallReporter } from './call-notifications.js';
import type { McpCall } from './mcp-call.js';

/**
 * Runs `operationId` (or the callable of `kind`, a prompt) for an MCP
 * request (`tools/call`, `resources/read`, `prompts/get`) through the one
 * invocation API: the caller's headers, request, locale
 * and timeout, the request's cancellation, response stream, progress and
 * log reporter and telemetry; the observer is told what it answered.
 */
export async function invokeForCall(
  invoker: OperationInvoker,
  call: McpCall,
  operationId: string,
  target: string,
  input: unknown,
  kind: string = OPERATION_KIND,
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
  };
  const result = await (kind === OPERATION_KIND
    ? invoker.invoke(operationId, options, hooks)
    : invoker.invokeCallable(kind, operationId, options, hooks));
  call.observer?.answered(result);
  return result;
}
