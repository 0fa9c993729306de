import type { Carrier } from '../interfaces/operation-contract.js';

/**
 * Why a call was refused before anything ran: the app has no such
 * operation, or it is not exposed on the carrier asked (an `internal`
 * operation is exposed on none).
 *
 * @publicApi
 */
export type OperationRefusal = 'unknown' | 'not-exposed';

/**
 * Thrown by `OperationInvoker.invoke` for a call it refuses to run: an
 * unknown operation, or one not exposed on the call's carrier. A carrier
 * answers it in its own way (an MCP client never gets so far: it knows
 * only the tools of operations exposed on MCP; the command line's `invoke`
 * prints a usage line and exits 64; the testing kit rejects with it).
 *
 * @publicApi
 */
export class OperationRefusedError extends Error {
  /** `'OperationRefusedError'`. */
  override readonly name = 'OperationRefusedError';

  constructor(
    /** The operation that was asked for. */
    readonly operationId: string,
    /** The carrier it was asked on. */
    readonly carrier: Carrier,
    /** Why it is refused there. */
    readonly reason: OperationRefusal,
    internal = false,
  ) {
    super(
      reason === 'unknown'
        ? `Unknown operation '${operationId}'.`
        : internal
          ? `Operation '${operationId}' is internal: it is exposed on no carrier.`
          : `Operation '${operationId}' is not exposed on the '${carrier}' carrier.`,
    );
  }
}
