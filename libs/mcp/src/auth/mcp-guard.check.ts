import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { OperationDefinition } from '@nestops/operations';
import {
  OperationInvoker,
  OperationRegistry,
} from '@nestops/operations/internal';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { unguardedMessage } from './mcp-guard.messages.js';

/**
 * Warns at startup when the calls of operations that need a permission run
 * without the guard that sets `request.user`: the `authGuard` option's
 * guard, or, without that option, any guard at all. Every such call would
 * answer `SECURITY_DENIED_003`, whoever calls. A warning, not an error: a
 * guard of another class may set the principal (a composite guard), which
 * this check cannot see into.
 */
@Injectable()
export class McpGuardCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: OperationRegistry,
    private readonly invoker: OperationInvoker,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  onApplicationBootstrap(): void {
    const { authGuard } = this.settings;
    const unguarded = this.registry
      .list()
      .filter(needsPrincipal)
      .filter((operation) => {
        const guards = this.invoker.guardsOf(operation.id);
        return authGuard
          ? !guards.some((guard) => isClassOf(guard, authGuard))
          : guards.length === 0;
      });
    if (unguarded.length > 0) {
      this.logger.warn(
        unguardedMessage(
          unguarded.map((operation) => operation.id),
          authGuard?.name,
        ),
      );
    }
  }
}

/** Published, and its calls need a principal with a permission. */
function needsPrincipal(operation: OperationDefinition): boolean {
  return operation.expose.length > 0 && operation.permissions.length > 0;
}

/** `guard` is `type` or a subclass of it. */
function isClassOf(guard: Function, type: Function): boolean {
  return guard === type || guard.prototype instanceof type;
}
