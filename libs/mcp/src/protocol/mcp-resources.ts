import { Inject, Injectable } from '@nestjs/common';
import { OperationMessages } from '@nestops/operations/internal';
import { InputRequired } from '../asking/mcp-asking.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpResourceCatalogue } from '../resources/mcp-resource.catalogue.js';
import {
  resourceContents,
  UNREADABLE_FAILURES,
} from '../resources/resource-contents.js';
import { inputOfVariables } from '../resources/resource-uri.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { McpAnswerWriter } from './answer.writer.js';
import { McpCallInvoker } from './call-invocation.js';
import type { McpCall } from './mcp-call.js';

/** The resource methods both revisions have (subscriptions are not among them). */
export const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * `resources/list`, `resources/templates/list` and `resources/read`, in
 * both revisions: a read runs the operation through the one invocation API,
 * as `tools/call` does, and a resource the caller may not read is not
 * found, exactly as an unknown URI.
 */
@Injectable()
export class McpResources {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly catalogue: McpResourceCatalogue,
    private readonly tools: McpToolCatalogue,
    private readonly calls: McpCallInvoker,
    private readonly messages: OperationMessages,
    private readonly writer: McpAnswerWriter,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /** The answer to one of `RESOURCE_METHODS`. */
  answer(call: McpCall): object | Promise<object> {
    switch (call.request.method) {
      case 'resources/list':
        return this.list(call);
      case 'resources/templates/list':
        return this.templates(call);
      default:
        return this.read(call);
    }
  }

  /** `resources/list`: the fixed URIs the caller may read. */
  list(call: McpCall): object {
    this.assertServed(call);
    return this.listed(call, (locale, reach) => ({
      resources: this.catalogue.resources(locale, reach),
    }));
  }

  /** `resources/templates/list`: the URI templates the caller may read. */
  templates(call: McpCall): object {
    this.assertServed(call);
    return this.listed(call, (locale, reach) => ({
      resourceTemplates: this.catalogue.templates(locale, reach),
    }));
  }

  /**
   * `resources/read`: the URI matched (`-32602` without a string `uri`),
   * its variables typed as the input's properties, then the operation
   * called as `tools/call` calls it. Not found (`-32002` in 2025, `-32602`
   * in 2026, `data.uri`): an unknown URI, a variable not of its type, and
   * a read the guards, permission or policy refuse or the operation does
   * not find. Any other failure: `-32602` (invalid input) or `-32000`,
   * with the failure's code and text.
   */
  async read(call: McpCall): Promise<object> {
    this.assertServed(call);
    const { params, revision } = call.request;
    const uri = params.uri;
    if (typeof uri !== 'string') {
      throw McpProtocolError.missingResourceUri(call.request.method);
    }
    const match = this.catalogue.find(uri);
    const input =
      match && inputOfVariables(match.entry.operation, match.values);
    if (!match || !input) {
      throw McpProtocolError.resourceNotFound(uri, revision);
    }
    const { operation } = match.entry;
    const result = await this.calls.invoke(call, operation, uri, input);
    if (result instanceof InputRequired) {
      return result.result;
    }
    if (!result.ok) {
      throw UNREADABLE_FAILURES.has(result.failure.code)
        ? McpProtocolError.resourceNotFound(uri, revision)
        : McpProtocolError.resourceReadFailed(
            uri,
            result.failure.code,
            result.text,
          );
    }
    const contents = [
      resourceContents(uri, operation.asResource?.mimeType, result),
    ];
    return revision === '2025'
      ? { contents }
      : this.writer.modern({ contents, ...this.writer.cacheHints(false) });
  }

  /** An app without resources does not have the methods (`-32601`), as its capabilities say. */
  private assertServed(call: McpCall): void {
    if (!this.catalogue.hasAny()) {
      throw McpProtocolError.methodNotFound(call.request.method);
    }
  }

  /** A list in the caller's language, per caller under `toolListPerCaller`. */
  private listed(
    call: McpCall,
    build: (
      locale: string,
      reach: ReturnType<McpToolCatalogue['reachOf']> | undefined,
    ) => object,
  ): object {
    const { caller } = call.transport;
    const locale = this.messages.callerLocale(caller.headers, caller.locale);
    const reach = this.settings.toolListPerCaller
      ? this.tools.reachOf(caller.principal)
      : undefined;
    const result = build(locale, reach);
    return call.request.revision === '2025'
      ? result
      : this.writer.modern({
          ...result,
          ...this.writer.cacheHints(
            !reach && this.catalogue.isSameInEveryLanguage(),
          ),
        });
  }
}
