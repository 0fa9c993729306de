import { randomBytes } from 'node:crypto';

/** A stream id: 128 random bits, base64url (22 characters). */
export function newStreamId(): string {
  return randomBytes(16).toString('base64url');
}

/** The SSE id of event `seq` of stream `streamId`. */
export function eventIdOf(streamId: string, seq: number): string {
  return `${streamId}:${seq}`;
}

const EVENT_ID = /^([A-Za-z0-9_-]{22}):([1-9][0-9]{0,8})$/;

/** The stream and event a `Last-Event-ID` names, or undefined when it names none. */
export function parseEventId(
  id: string | undefined,
): { readonly streamId: string; readonly seq: number } | undefined {
  const match = id === undefined ? null : EVENT_ID.exec(id.trim());
  return match ? { streamId: match[1], seq: Number(match[2]) } : undefined;
}
