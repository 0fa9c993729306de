import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import {
  ANSWER_RELAY,
  type AnswerRelay,
  callerDigest,
  type RelayedAnswer,
} from './answer-relay.js';
import type { McpClientResponse } from './mcp-message.js';
import type { McpSession } from './mcp-session.js';
import {
  type AnswerOutcome,
  instanceOfId,
  ServerRequests,
} from './server-requests.js';

/** The longest part of an ignored answer's id a log line shows. */
const LOGGED_ID_LENGTH = 80;

/**
 * Where a client's answer to a request the server sent it goes: the
 * request it settles on this instance; with a relay (the `redis` option),
 * the instance whose id it names, which checks the caller and settles it.
 * An answer to another caller's request, or to none awaited, is ignored
 * and logged (its id, never its content).
 */
@Injectable()
export class ClientAnswers implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  /** The requests this instance sent its clients, awaiting answers. */
  readonly requests = new ServerRequests();

  /** @internal Made by Nest's injector. */
  constructor(
    @Optional()
    @Inject(ANSWER_RELAY)
    private readonly relay: AnswerRelay | null = null,
  ) {}

  /** Listens for the answers other instances pass on (fails the start if it cannot). */
  async onModuleInit(): Promise<void> {
    await this.relay?.listen(this.requests.instance, (answer) =>
      this.relayed(answer),
    );
  }

  /** Lets the relay's connections go, once the server has closed. */
  async onApplicationShutdown(): Promise<void> {
    await this.relay?.close();
  }

  /**
   * Settles the request `answer` answers if `session` sent it; else passes
   * it to the instance that sent it, if another one did; else logs it.
   */
  async receive(
    answer: McpClientResponse,
    session: McpSession,
    peer: string | undefined,
  ): Promise<void> {
    const outcome = session.settle(answer);
    if (outcome === 'settled') {
      return;
    }
    if (outcome === 'unknown' && (await this.forward(answer, peer))) {
      return;
    }
    this.ignored(answer.id, outcome);
  }

  /** Whether another instance listens for the answer and got it. */
  private async forward(
    answer: McpClientResponse,
    peer: string | undefined,
  ): Promise<boolean> {
    const owner = instanceOfId(answer.id);
    if (
      !this.relay ||
      peer === undefined ||
      owner === undefined ||
      owner === this.requests.instance
    ) {
      return false;
    }
    try {
      return await this.relay.publish(owner, {
        id: answer.id as string,
        caller: callerDigest(peer),
        ...(answer.error === undefined
          ? { result: answer.result }
          : { error: answer.error }),
      });
    } catch (error) {
      this.logger.warn(
        `Could not pass a client's answer (id ${logged(answer.id)}) to the instance that asked: ${(error as Error).message}`,
      );
      return true;
    }
  }

  /** An answer another instance passed on: settled if its caller sent the request. */
  private relayed(answer: RelayedAnswer): void {
    const outcome = this.requests.settle(
      answer,
      (sender) =>
        sender.peer !== undefined &&
        callerDigest(sender.peer) === answer.caller,
    );
    if (outcome !== 'settled') {
      this.ignored(answer.id, outcome);
    }
  }

  private ignored(id: JsonRpcId, outcome: AnswerOutcome): void {
    this.logger.warn(
      outcome === 'foreign'
        ? `Ignored a client's answer to another caller's request (id ${logged(id)})`
        : `Ignored a client's answer to no request awaited (id ${logged(id)})`,
    );
  }
}

/** An id as a log line shows it: quoted, escaped, cut short. */
function logged(id: JsonRpcId): string {
  return JSON.stringify(id).slice(0, LOGGED_ID_LENGTH);
}
