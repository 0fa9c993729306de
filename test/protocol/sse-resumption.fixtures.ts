import { Injectable, Module, type Type } from '@nestjs/common';
import { McpModule, type McpResumptionOptions } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { IsInt, Max, Min } from 'class-validator';

class SlowJobDto {
  @IsInt()
  @Min(1)
  @Max(50)
  steps: number;

  @IsInt()
  @Min(1)
  @Max(2000)
  stepMs: number;
}

/** How many slow jobs ran to their end, on any app of the test process. */
export const FINISHED = { count: 0 };

/** A job that reports its progress step by step, slowly. */
@Injectable()
class SlowJobs {
  @Operation({ id: 'jobs.slow', description: 'Reports each step, slowly.' })
  async slow(input: SlowJobDto, context: InvocationContext) {
    for (let step = 1; step <= input.steps; step += 1) {
      await new Promise((settle) => setTimeout(settle, input.stepMs));
      context.reportProgress(step, input.steps);
    }
    FINISHED.count += 1;
    return { steps: input.steps };
  }

  /** Reports, asks the client its roots (`roots/list`) a while later, reports again. */
  @Operation({ id: 'jobs.rooted', description: 'Asks the roots midway.' })
  async rooted(input: SlowJobDto, context: InvocationContext) {
    context.reportProgress(1, 2);
    await new Promise((settle) => setTimeout(settle, input.stepMs));
    const roots = await context.roots();
    context.reportProgress(2, 2);
    return { roots: roots.map((root) => root.uri) };
  }
}

/** An app serving `jobs_slow`, with `resumption` (and `redis`) as given. */
export function slowJobsModule(
  resumption?: McpResumptionOptions | false,
  redis?: string,
): Type {
  @Module({
    imports: [
      McpModule.forRoot({ serverName: 'slow-jobs', resumption, redis }),
    ],
    providers: [SlowJobs],
  })
  class SlowJobsModule {}
  return SlowJobsModule;
}

/** The headers of a raw 2025-11-25 POST that accepts SSE, with `extra`. */
export function postHeaders(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...extra,
  };
}

/** The headers of a GET that resumes after `lastEventId`, with `extra`. */
export function resumeHeaders(
  lastEventId: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    accept: 'text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    'last-event-id': lastEventId,
    ...extra,
  };
}

/** A `tools/call` of `jobs_slow` with a progress token. */
export function slowCall(id: number, steps: number, stepMs: number) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'jobs_slow',
      arguments: { steps, stepMs },
      _meta: { progressToken: `job-${id}` },
    },
  };
}

/** What an SSE block carries: the progress it reports, or the answer's id. */
export function meaningOf(data: string | undefined): string {
  const message = JSON.parse(data ?? 'null') as {
    id?: number;
    method?: string;
    params?: { progress?: number };
    result?: { structuredContent?: unknown };
  };
  return message.method === 'notifications/progress'
    ? `progress ${message.params?.progress}`
    : `answer ${JSON.stringify(message.result?.structuredContent)}`;
}

/** Reconnection options that retry soon, for the SDK v1 transport. */
export const QUICK_RECONNECTION = {
  initialReconnectionDelay: 50,
  maxReconnectionDelay: 200,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 3,
};

/**
 * `response` (an SSE answer) as its client sees it when the connection
 * fails after `events` events: the rest is never read (the real connection
 * is cancelled) and the body errors.
 */
export function cutAfter(response: Response, events: number): Response {
  const reader = response.body!.getReader();
  let seen = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (seen >= events) {
        await reader.cancel();
        return controller.error(new Error('connection lost'));
      }
      const { value, done } = await reader.read();
      if (done) return controller.close();
      seen += new TextDecoder().decode(value).split('\n\n').length - 1;
      controller.enqueue(value);
    },
  });
  return new Response(body, {
    status: response.status,
    headers: response.headers,
  });
}
