import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OuterAuthenticator } from '../../auth/outer-authenticator.js';
import type { ProtectedResource } from '../../auth/protected-resource.js';
import type { McpServing } from '../../lifecycle/serving.port.js';
import type { McpSettings } from '../../options/mcp-settings.js';
import { sendProblem } from './http-problem.js';
import { isOriginAllowed } from './origin.policy.js';
import { isJsonRequest } from './request-body.reader.js';

/**
 * What a request to the endpoint passes before it is served (a POST's
 * message, a GET's resumed stream), each refusal answered here.
 */
export class HttpAdmission {
  constructor(
    private readonly settings: McpSettings,
    private readonly resource: ProtectedResource,
    private readonly authenticator: OuterAuthenticator,
    /** Whether the endpoint serves now. */
    private readonly ready: () => boolean,
    private readonly serving: McpServing | null,
  ) {}

  /**
   * Whether the request may be served (else it was answered): its turn
   * came, the app is ready, its origin is allowed, a POST's body is JSON,
   * credentials are there where required and the app's guard admits them.
   */
  async admits(
    req: IncomingMessage,
    res: ServerResponse,
    app: readonly [request: object, response: object],
    post: boolean,
  ): Promise<boolean> {
    if (this.serving && !(await this.serving.turn(req, res))) return false;
    if (!this.ready()) {
      return refused(
        res,
        503,
        'Service Unavailable',
        'The application is not ready.',
        { 'Retry-After': '1' },
      );
    }
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      !isOriginAllowed(origin, this.settings.allowedOrigins)
    ) {
      return refused(res, 403, 'Forbidden', `Origin ${origin} is not allowed.`);
    }
    if (post && !isJsonRequest(req)) {
      return refused(
        res,
        415,
        'Unsupported Media Type',
        'Send the JSON-RPC message as application/json.',
      );
    }
    const { oauth, requireToken } = this.settings;
    if (req.headers.authorization === undefined) {
      if (oauth?.requireToken === 'always') {
        return refused(
          res,
          401,
          'Unauthorized',
          'An access token is required.',
          { 'WWW-Authenticate': this.resource.unauthorized(oauth, false) },
        );
      }
      if (requireToken) {
        return refused(res, 401, 'Unauthorized', 'Credentials are required.', {
          'WWW-Authenticate': `${requireToken.scheme} realm="${this.settings.serverName}"`,
        });
      }
    }
    return this.authenticator.admit(req, res, app);
  }
}

/** `sendProblem`, then false: the request was answered. */
function refused(...problem: Parameters<typeof sendProblem>): false {
  sendProblem(...problem);
  return false;
}
