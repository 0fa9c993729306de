import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import {
  type CallAsker,
  type OperationDefinition,
  OperationRegistry,
} from '@nestops/operations/internal';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import type { McpCall } from '../protocol/mcp-call.js';
import { callerOfCall } from '../transports/http/http-caller.js';
import { missingCapabilities } from './client-capabilities.js';
import { InputAsker } from './input-asker.js';
import { InputRound } from './input-round.js';
import { RequestStateSeal } from './request-state.js';
import { StreamAsker } from './stream-asker.js';

/** A 2026-07-28 request answered with the questions it must come back with. */
export class InputRequired {
  constructor(
    /** The result: `resultType: "input_required"`, `inputRequests`, `requestState`. */
    readonly result: object,
  ) {}
}

/** One call's questions to its client: its asker, and what its result becomes. */
export interface CallAsking {
  readonly asker: CallAsker;
  /** The answers the request brought (2026-07-28's earlier rounds), by key. */
  readonly answers: ReadonlyMap<string, unknown>;
  /** The call's result, or the questions it stopped at (2026-07-28). */
  settle(result: InvocationResult): InvocationResult | InputRequired;
}

/**
 * Puts the questions of calls to their clients, as their revision does: a
 * 2025 call sends requests on its stream; a 2026-07-28 call stops at an
 * unanswered question and is answered `input_required` with a sealed
 * `requestState`, then runs again with the answers. Startup fails when an
 * operation asks and no key seals that state.
 */
@Injectable()
export class McpAsking implements OnApplicationBootstrap {
  private readonly seal: RequestStateSeal;

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: OperationRegistry,
  ) {
    this.seal = new RequestStateSeal(settings.asking.stateKeys);
  }

  onApplicationBootstrap(): void {
    if (this.seal.ready) {
      return;
    }
    const { confirm } = this.settings.asking;
    const asking = [
      ...this.registry.exposedOn('mcp'),
      ...this.registry.callables('prompt'),
    ].find(
      (definition) =>
        definition.asks !== undefined ||
        (confirm === 'destructive' && definition.semantics.destructive),
    );
    if (asking) {
      throw new Error(
        `McpModule: '${asking.id}' asks its client (${asking.asks ? 'its @Operation says confirm, elicits or requires' : "asking.confirm is 'destructive'"}), and a 2026-07-28 client answers by coming back with a sealed requestState: set asking.stateKeys to one or more secrets of at least 32 characters (openssl rand -base64 32), the same on every instance.`,
      );
    }
  }

  /**
   * The questions of `call`, which runs `definition` on `target` with
   * `input`. In 2026-07-28: `-32021` when the operation `requires` what the
   * client did not declare, `-32602` for a `requestState` it cannot use.
   */
  begin(
    call: McpCall,
    definition: OperationDefinition,
    target: string,
    input: unknown,
  ): CallAsking {
    const { request } = call;
    if (request.revision !== '2026' || request.meta === undefined) {
      const asker = new StreamAsker(call);
      return { asker, answers: new Map(), settle: (result) => result };
    }
    const capabilities = request.meta.clientCapabilities;
    const missing = missingCapabilities(
      capabilities,
      definition.asks?.requires ?? [],
    );
    if (Object.keys(missing).length > 0) {
      throw McpProtocolError.missingClientCapability(missing);
    }
    const round = InputRound.of(request.params, this.seal, () => ({
      caller: this.callerOf(call),
      method: request.method,
      target,
      input,
    }));
    const asker = new InputAsker(capabilities, round.answers);
    return {
      asker,
      answers: round.answers,
      settle: (result) => {
        if (
          asker.asked.size === 0 ||
          result.ok ||
          result.failure.code !== 'INTERNAL_INPUT_001'
        ) {
          return result;
        }
        if (!this.seal.ready) {
          throw new Error(
            `McpModule: '${definition.id}' asked its client, and no asking.stateKeys seal the requestState its 2026-07-28 client must come back with.`,
          );
        }
        return new InputRequired({
          resultType: 'input_required',
          inputRequests: asker.inputRequests(),
          requestState: round.next(
            this.seal,
            [...asker.asked.keys()],
            this.settings.asking.stateTtl,
          ),
        });
      },
    };
  }

  /** Who calls, as a 2025 HTTP session is keyed: principal, credentials, else address. */
  private callerOf(call: McpCall): string {
    return callerOfCall(call, this.settings.telemetry.principalId);
  }
}
