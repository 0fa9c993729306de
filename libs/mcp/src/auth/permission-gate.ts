import type { ServerResponse } from 'node:http';
import type { McpOAuthSettings } from './oauth-options.resolver.js';
import type { ProtectedResource } from './protected-resource.js';
import type { McpMessage } from '../protocol/mcp-message.js';
import type { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { sendProblem } from '../transports/http/http-problem.js';

/**
 * What a request acts on, as the gate names it (`calling orders_create`,
 * `reading orders://42`, `getting the prompt restock`), and the
 * permissions that needs.
 */
export interface GatedTarget {
  readonly action: string;
  readonly needed: readonly string[];
}

/** The target of a `tools/call`, `resources/read` or `prompts/get`; undefined otherwise. */
export type GatedTargetOf = (message: McpMessage) => GatedTarget | undefined;

/**
 * What OAuth mode answers over HTTP before a `tools/call`, a
 * `resources/read` or a `prompts/get` runs, by the permission part of what
 * it acts on alone (policies and guards still judge the call): a request
 * that needs a permission, without a token, gets the
 * `401` challenge; with a token that lacks it, under `stepUp`, the `403
 * insufficient_scope` challenge naming the scopes that grant it. Under
 * `toolListPerCaller`, an anonymous `tools/list` that would be empty gets
 * the `401` challenge too, so that the client logs in. It reads the
 * classified messages of the POST (each of a batch).
 */
export class PermissionGate {
  constructor(
    private readonly catalogue: McpToolCatalogue,
    private readonly targetOf: GatedTargetOf,
    private readonly resource: ProtectedResource,
    private readonly oauth: McpOAuthSettings,
    private readonly toolListPerCaller: boolean,
  ) {}

  /** True when it has answered the POST that carried `messages`. */
  refuses(
    messages: readonly McpMessage[],
    principal: unknown,
    res: ServerResponse,
  ): boolean {
    for (const message of messages) {
      if (this.refusesOne(message, principal, res)) {
        return true;
      }
    }
    return false;
  }

  /** A `tools/list` whose per-caller list has nothing for an anonymous caller. */
  private isEmptyAnonymousList(
    message: McpMessage,
    principal: unknown,
  ): boolean {
    return (
      this.toolListPerCaller &&
      message.kind === 'request' &&
      message.method === 'tools/list' &&
      isAnonymous(principal) &&
      !this.catalogue.reachesAny(this.catalogue.reachOf(principal))
    );
  }

  private refusesOne(
    message: McpMessage,
    principal: unknown,
    res: ServerResponse,
  ): boolean {
    if (this.isEmptyAnonymousList(message, principal)) {
      sendProblem(
        res,
        401,
        'Unauthorized',
        'Listing the tools needs an access token: none is open to anonymous callers.',
        { 'WWW-Authenticate': this.resource.unauthorized(this.oauth, false) },
      );
      return true;
    }
    const target = this.targetOf(message);
    if (!target || target.needed.length === 0) {
      return false;
    }
    const { action, needed } = target;
    if (isAnonymous(principal)) {
      sendProblem(
        res,
        401,
        'Unauthorized',
        `${action[0].toUpperCase()}${action.slice(1)} needs an access token.`,
        { 'WWW-Authenticate': this.resource.unauthorized(this.oauth, false) },
      );
      return true;
    }
    const { held } = this.catalogue.reachOf(principal);
    if (!this.oauth.stepUp || needed.every((p) => held.has(p))) {
      return false;
    }
    const challenge = this.resource.insufficientScope(this.oauth, needed);
    sendProblem(
      res,
      403,
      'Forbidden',
      `The access token lacks the scope that ${action} needs.`,
      { 'WWW-Authenticate': challenge },
    );
    return true;
  }
}

/** Whether the caller is anonymous (no principal). */
function isAnonymous(principal: unknown): boolean {
  return principal === undefined || principal === null;
}
