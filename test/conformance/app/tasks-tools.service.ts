import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { McpContent, McpResult } from '@nestops/mcp';
import {
  getInvocationContext,
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfirmForm, NameForm, PartialForm } from './asking.dto';
import { DeleteInput, GreetInput, SlowComputeInput } from './tasks.dto';

/** Asks the user's name before the call is ready to run: its answer travels with the task. */
@Injectable()
class AskNameGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    await getInvocationContext(context)?.elicit(NameForm, 'Your name?', {
      key: 'user_name',
    });
    return true;
  }
}

/**
 * The tasks extension's fixtures (SEP-2663, `tasks-*` scenarios of the
 * 2026-07-28 suite): a plain tool, and tools that run as tasks for a client
 * that negotiated them.
 */
@Injectable()
export class TasksToolsService {
  /** Never a task. */
  @Operation({
    id: 'tasks.greet',
    readOnly: true,
    input: GreetInput,
    description: 'Greets by name, at once.',
  })
  greet(input: GreetInput): McpResult {
    return text(`Hello, ${input.name}!`);
  }

  /** Sleeps `seconds`, reporting each one, until done or cancelled. */
  @Operation({
    id: 'tasks.slow-compute',
    description: 'Computes for the given seconds; a task.',
    readOnly: true,
    input: SlowComputeInput,
    task: 'optional',
  })
  async slowCompute(
    input: SlowComputeInput,
    context: InvocationContext,
  ): Promise<McpResult> {
    for (let second = 0; second < input.seconds; second++) {
      context.reportProgress(second, input.seconds, 'computing');
      await sleep(1000, undefined, { signal: context.signal });
    }
    return text(`Computed ${input.label ?? 'it'} in ${input.seconds} s`);
  }

  /** A business failure after a second: `completed` with `isError`. */
  @Operation({
    id: 'tasks.failing-job',
    description: 'Fails after a second, as a business failure; always a task.',
    readOnly: true,
    input: null,
    task: 'required',
  })
  async failingJob(
    _input: undefined,
    context: InvocationContext,
  ): Promise<never> {
    await sleep(1000, undefined, { signal: context.signal });
    throw new OperationException('BUSINESS_REJECTED_001', {
      detail: 'The job failed, as it always does.',
    });
  }

  /** An unexpected error: the task `failed`. */
  @Operation({
    id: 'tasks.protocol-error-job',
    description: 'Crashes; a task.',
    readOnly: true,
    input: null,
    task: 'optional',
  })
  protocolErrorJob(): never {
    throw new Error('The job crashed.');
  }

  /** Asks to confirm, as a task waiting on its client. */
  @Operation({
    id: 'tasks.confirm-delete',
    description: 'Asks to confirm a deletion; a task.',
    readOnly: true,
    input: DeleteInput,
    elicits: [ConfirmForm],
    task: 'optional',
  })
  async confirmDelete(
    input: DeleteInput,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await context.elicit(
      ConfirmForm,
      `Delete ${input.filename}?`,
      { key: 'confirm' },
    );
    const yes = answer.action === 'accept' && answer.content.confirm;
    return text(yes ? `Deleted ${input.filename}` : 'Kept it');
  }

  /** Two questions at once: the task waits until both are answered. */
  @Operation({
    id: 'tasks.multi-input',
    description: 'Asks two questions at once; a task.',
    readOnly: true,
    input: null,
    elicits: [PartialForm],
    task: 'optional',
  })
  async multiInput(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const [first, second] = await Promise.all([
      context.elicit(PartialForm, 'First?', { key: 'first' }),
      context.elicit(PartialForm, 'Second?', { key: 'second' }),
    ]);
    return text(`${first.action} and ${second.action}`);
  }

  /** Asks a name before it runs (the MRTR round), then runs as a task. */
  @UseGuards(AskNameGuard)
  @Operation({
    id: 'tasks.with-task',
    description: 'Asks a name, then runs as a task.',
    readOnly: true,
    input: null,
    elicits: [NameForm],
    task: 'required',
  })
  async withTask(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await context.elicit(NameForm, 'Your name?', {
      key: 'user_name',
    });
    return text(
      `Hello, ${answer.action === 'accept' ? answer.content.name : 'stranger'}!`,
    );
  }
}

function text(value: string): McpResult {
  return McpResult.content(McpContent.text(value));
}
