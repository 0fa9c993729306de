import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import { CarrierCancel } from './carrier-cancel.js';

/**
 * The 2025 `tools/call` requests this instance is serving, by caller and
 * request id: what a 2025 `notifications/cancelled` POST cancels. A caller
 * is its `Authorization` header, or its address when it sends none, so one
 * caller can never cancel another's call. A cancellation that reaches
 * another instance of the app, or names no call under way, is ignored.
 */
export class InFlightCalls {
  private readonly calls = new Map<string, CarrierCancel>();

  /**
   * The cancellation of a call now under way, until `forget`; undefined
   * when the caller already has one under way with this id (the first keeps
   * it).
   */
  track(caller: string, id: JsonRpcId): CarrierCancel | undefined {
    const key = keyOf(caller, id);
    if (this.calls.has(key)) {
      return undefined;
    }
    const cancel = new CarrierCancel();
    this.calls.set(key, cancel);
    return cancel;
  }

  forget(caller: string, id: JsonRpcId, cancel: CarrierCancel): void {
    const key = keyOf(caller, id);
    if (this.calls.get(key) === cancel) {
      this.calls.delete(key);
    }
  }

  /** Cancels the caller's call `id`, if it is under way here. */
  cancel(caller: string, id: JsonRpcId): void {
    this.calls.get(keyOf(caller, id))?.cancel();
  }
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

function keyOf(caller: string, id: JsonRpcId): string {
  return `${typeof id} ${String(id)}\u0000${caller}`;
}
