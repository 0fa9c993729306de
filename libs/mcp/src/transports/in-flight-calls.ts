import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import { CarrierCancel } from './carrier-cancel.js';

/**
 * The requests under way, by caller and request id: what a
 * `notifications/cancelled` cancels (a 2025 POST's, or a stdio session's).
 * Over HTTP a caller is its `Authorization` header, or its address when it
 * sends none, so one caller can never cancel another's call; a stdio
 * session is one caller. A cancellation that reaches another instance of
 * the app, or names no request under way, is ignored.
 */
export class InFlightCalls {
  /**
   * By request id (a number and its text are two ids, as Map keys are):
   * each caller's call under way with it. No key is built per call.
   */
  private readonly calls = new Map<JsonRpcId, TrackedCall[]>();

  /**
   * The cancellation of a call now under way, until `forget`; undefined
   * when the caller already has one under way with this id (the first keeps
   * it).
   */
  track(caller: string, id: JsonRpcId): CarrierCancel | undefined {
    const tracked = this.calls.get(id);
    if (tracked?.some((call) => call.caller === caller)) {
      return undefined;
    }
    const cancel = new CarrierCancel();
    if (tracked) {
      tracked.push({ caller, cancel });
    } else {
      this.calls.set(id, [{ caller, cancel }]);
    }
    return cancel;
  }

  /**
   * Forgets the call `track` gave `cancel` for (nothing when `cancel` is
   * undefined: `track` tracked nothing).
   */
  forget(
    caller: string,
    id: JsonRpcId,
    cancel: CarrierCancel | undefined,
  ): void {
    const tracked = this.calls.get(id);
    const index =
      tracked?.findIndex(
        (call) => call.cancel === cancel && call.caller === caller,
      ) ?? -1;
    if (index < 0) {
      return;
    }
    if (tracked!.length === 1) {
      this.calls.delete(id);
    } else {
      tracked!.splice(index, 1);
    }
  }

  /** Cancels the caller's call `id`, if it is under way here. */
  cancel(caller: string, id: JsonRpcId): void {
    this.calls
      .get(id)
      ?.find((call) => call.caller === caller)
      ?.cancel.cancel();
  }
}

/** One caller's call under way. */
interface TrackedCall {
  readonly caller: string;
  readonly cancel: CarrierCancel;
}

/** Who a POST comes from, as far as cancelling its calls goes. */
export function callerOf(
  headers: IncomingHttpHeaders,
  address: string | undefined,
): string {
  const { authorization } = headers;
  return authorization === undefined
    ? `address ${address ?? ''}`
    : `authorization ${authorization}`;
}
