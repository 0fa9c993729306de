import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type Wake = () => void;

/** Who waits on each connection, woken together by its one `drain` and `close` listener. */
const waiting = new WeakMap<Socket, Set<Wake>>();

/**
 * Waits until a request's answer can go straight onto its connection (at
 * once, without a promise, when it can already). Node
 * hands pipelined requests over all at once and holds the answers of all but
 * the first in memory, so a client that pipelines and never reads would make
 * the server compute and hold every answer. Resolves `true` once the response
 * owns the socket (the answers before it on the connection have left the
 * process) and the socket's buffer has drained; `false` if the connection
 * closed first, when nothing is to be answered.
 */
export function connectionTurn(
  req: IncomingMessage,
  res: ServerResponse,
): boolean | Promise<boolean> {
  const connection = req.socket;
  const now = turnNow(connection, res);
  if (now !== undefined) {
    return now;
  }
  return new Promise((resolve) => {
    let stop: Wake = () => undefined;
    const step = (): void => {
      stop();
      const decided = turnNow(connection, res);
      if (decided !== undefined) {
        return resolve(decided);
      }
      if (!res.socket) {
        res.once('socket', step);
        const unwatch = watch(connection, step);
        stop = () => {
          res.off('socket', step);
          unwatch();
        };
      } else {
        stop = watch(connection, step);
      }
    };
    step();
  });
}

/**
 * Whether the response may be computed now: `false` once the connection
 * or the response is gone, `true` when it owns the socket and the socket's
 * buffer is drained, undefined while it has to wait.
 */
function turnNow(connection: Socket, res: ServerResponse): boolean | undefined {
  if (connection.destroyed || res.destroyed) {
    return false;
  }
  return res.socket && !connection.writableNeedDrain ? true : undefined;
}

/** Calls `wake` on the connection's next `drain` or `close`; returns how to stop. */
function watch(connection: Socket, wake: Wake): Wake {
  let wakes = waiting.get(connection);
  if (!wakes) {
    const all = new Set<Wake>();
    const wakeAll = () => [...all].forEach((each) => each());
    connection.on('drain', wakeAll);
    connection.once('close', wakeAll);
    waiting.set(connection, all);
    wakes = all;
  }
  const own = wakes;
  own.add(wake);
  return () => own.delete(wake);
}
