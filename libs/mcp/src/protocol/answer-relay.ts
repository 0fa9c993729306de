import { createHash } from 'node:crypto';
import type { ClientAnswer } from './server-requests.js';

/** The injection token of the relay of answers between instances (null: none). */
export const ANSWER_RELAY = Symbol('ANSWER_RELAY');

/** A client's answer, on its way to the instance whose request it answers. */
export interface RelayedAnswer extends ClientAnswer {
  readonly id: string;
  /** Who answered: the digest of its `McpTransport.peer` (`callerDigest`). */
  readonly caller: string;
}

/**
 * What carries answers between the instances of one app (the `redis`
 * option): each instance listens for the answers to its own requests.
 */
export interface AnswerRelay {
  /** Delivers the answers sent to `instance` until `close`; rejects when it cannot. */
  listen(
    instance: string,
    deliver: (answer: RelayedAnswer) => void,
  ): Promise<void>;
  /** Sends `answer` to `instance`; false when no instance listens there. */
  publish(instance: string, answer: RelayedAnswer): Promise<boolean>;
  /** Stops listening and lets the connections go. */
  close(): Promise<void>;
}

/**
 * A caller as it travels between instances: a digest of its peer, which
 * may hold its credentials, so that they never leave the process.
 */
export function callerDigest(peer: string): string {
  return createHash('sha256').update(peer).digest('base64url');
}
