import type { ResponseStream } from '@nestops/operations/internal';

/** The stream of a transport that can send nothing ahead of an answer. */
export const CLOSED_STREAM: ResponseStream = Object.freeze({
  open: false,
  send: () => undefined,
});
