import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Answers `Expect: 100-continue` on `server` as Node does by itself
 * (`100 Continue`, then the request goes to the server's 'request'
 * listeners), except for a request that `refused` names: `refuse` answers
 * it before any `100`, so its client never sends the body. It acts only
 * while it is the server's one 'checkContinue' listener: when the app has
 * its own, that one answers every request.
 */
export function answerExpectContinue(
  server: Server,
  refused: (req: IncomingMessage) => boolean,
  refuse: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (server.listenerCount('checkContinue') > 1) {
      return;
    }
    if (refused(req)) {
      refuse(req, res);
      return;
    }
    res.writeContinue();
    server.emit('request', req, res);
  };
  server.on('checkContinue', listener);
}
