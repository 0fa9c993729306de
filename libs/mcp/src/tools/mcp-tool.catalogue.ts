import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { OperationDefinition } from '@nestops/operations';
import {
  ContractError,
  OperationMessages,
  OperationRegistry,
  OperationTexts,
  operationTextKeys,
  heldPermissions,
  confirmsEachCall,
} from '@nestops/operations/internal';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { TOOL_NAME_PATTERN } from '../mcp.constants.js';
import { createTool, defaultToolName } from './mcp-tool.factory.js';
import type { McpTool } from './mcp-tool.interface.js';
import { type ParamHeader, paramHeadersOf } from '../headers/param-headers.js';
import {
  DUPLICATE_TOOL_NAME,
  INVALID_TOOL_NAME,
  duplicateToolNameMessage,
  invalidToolNameMessage,
  undescribedToolsMessage,
  unknownOverrideMessage,
} from './mcp-tool.messages.js';

interface CatalogueEntry {
  readonly name: string;
  readonly operation: OperationDefinition;
  /** The input properties mirrored in `Mcp-Param-*` headers. */
  readonly paramHeaders: readonly ParamHeader[];
}

/**
 * The permissions of one caller, as far as the tool list goes: `key`
 * names those of the catalogue's permissions it holds, so every caller
 * with the same ones shares one prepared list.
 */
export interface ToolReach {
  /** The catalogue's permissions held, space-separated, sorted. */
  readonly key: string;
  /** Every permission held. */
  readonly held: ReadonlySet<string>;
}

/**
 * The tools of the application, built once at bootstrap from the operations
 * exposed on MCP. Building fails the startup on an invalid or duplicate
 * name, or an `@McpHeader()` that cannot be published.
 * The list of each language (titles, descriptions and property
 * descriptions from the message catalogue or the decorators, through
 * `OperationTexts`) is built once, at bootstrap for the application's
 * languages, and reused: `tools/list` translates nothing.
 */
@Injectable()
export class McpToolCatalogue implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');
  private entries?: ReadonlyMap<string, CatalogueEntry>;
  /** Tool names by operation id. */
  private names?: ReadonlyMap<string, string>;
  private readonly lists = new Map<string, readonly McpTool[]>();
  private readonly ordered = new Map<string, readonly McpTool[]>();
  /** Whether the list is the same in every language, for the languages named. */
  private sameInEveryLanguage?: { readonly languages: string; same: boolean };
  private prepared = false;
  /** Every permission a tool needs, each once, sorted. */
  private permissionNames?: readonly string[];

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly registry: OperationRegistry,
    private readonly messages: OperationMessages,
    private readonly texts: OperationTexts,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /** Nest's bootstrap hook: `prepare()`, so a bad tool name stops the startup. */
  onApplicationBootstrap(): void {
    this.prepare();
  }

  /**
   * Builds the tools and the list of each application language, once;
   * throws on an invalid or duplicate tool name.
   */
  prepare(): void {
    if (this.prepared) {
      return;
    }
    this.build();
    for (const language of this.messages.languages()) {
      this.tools(language);
      this.toolsByName(language);
    }
    this.isSameInEveryLanguage();
    this.prepared = true;
    this.warnUndescribed();
  }

  /** The tool list in `locale`, one of the application's languages. */
  tools(locale: string): readonly McpTool[] {
    let list = this.lists.get(locale);
    if (!list) {
      this.build();
      list = Object.freeze(
        [...(this.entries?.values() ?? [])].map(
          ({ name, operation, paramHeaders }) =>
            createTool(
              name,
              operation,
              this.texts.of(operation, locale),
              paramHeaders,
              confirmsEachCall(operation, this.settings.asking.confirm),
            ),
        ),
      );
      this.lists.set(locale, list);
    }
    return list;
  }

  /**
   * @internal What a caller's permissions reach: the catalogue's permissions it
   * holds (by the module's `permissionsOf`, as the calls check them).
   */
  reachOf(principal: unknown): ToolReach {
    this.build();
    const held = heldPermissions(principal, this.settings.permissionsOf);
    const key = (this.permissionNames ?? [])
      .filter((permission) => held.has(permission))
      .join(' ');
    return { key, held };
  }

  /** The tool name of an operation exposed on MCP, or undefined. */
  nameOf(operationId: string): string | undefined {
    this.build();
    return this.names?.get(operationId);
  }

  /**
   * The tool list in `locale` ordered by name (code-unit order), the same
   * order whatever order the operations were discovered in: what 2026
   * callers get, so their caches and prompt caches see one list. A task
   * operation's tool says so (`execution.taskSupport`).
   */
  toolsByName(locale: string): readonly McpTool[] {
    let list = this.ordered.get(locale);
    if (!list) {
      list = Object.freeze(
        [...this.tools(locale)]
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map((tool) => {
            const task = this.find(tool.name)?.operation.task;
            return task === undefined
              ? tool
              : Object.freeze({ ...tool, execution: { taskSupport: task } });
          }),
      );
      this.ordered.set(locale, list);
    }
    return list;
  }

  /**
   * Whether the tool list is the same in every application language, so it
   * cannot depend on who asks (nothing else about the caller changes it):
   * then a shared cache may serve it to anyone.
   */
  isSameInEveryLanguage(): boolean {
    const languages = this.messages.languages();
    const key = languages.join(',');
    if (this.sameInEveryLanguage?.languages !== key) {
      const lists = languages.map((language) =>
        JSON.stringify(this.tools(language)),
      );
      this.sameInEveryLanguage = {
        languages: key,
        same: lists.every((list) => list === lists[0]),
      };
    }
    return this.sameInEveryLanguage.same;
  }

  /** @internal The operation behind the tool `name`, for `tools/call`. */
  find(name: string): CatalogueEntry | undefined {
    this.build();
    return this.entries?.get(name);
  }

  /** @internal Whether `reach` holds the permissions of at least one tool. */
  reachesAny(reach: ToolReach): boolean {
    this.build();
    return [...(this.entries?.values() ?? [])].some(({ operation }) =>
      operation.permissions.every((permission) => reach.held.has(permission)),
    );
  }

  /** @internal The tools of `list` whose operation's permissions `reach` holds. */
  within(
    list: readonly McpTool[],
    reach: ToolReach | undefined,
  ): readonly McpTool[] {
    if (!reach) {
      return list;
    }
    return list.filter((tool) =>
      (this.entries?.get(tool.name)?.operation.permissions ?? []).every(
        (permission) => reach.held.has(permission),
      ),
    );
  }

  private build(): void {
    if (this.entries) {
      return;
    }
    for (const id of Object.keys(this.settings.tools)) {
      if (!this.registry.get(id)) {
        throw new Error(unknownOverrideMessage(id));
      }
    }
    const entries = new Map<string, CatalogueEntry>();
    for (const operation of this.registry.exposedOn('mcp')) {
      const name = Object.hasOwn(this.settings.tools, operation.id)
        ? this.settings.tools[operation.id]
        : defaultToolName(operation.id);
      if (!TOOL_NAME_PATTERN.test(name)) {
        throw new ContractError(
          INVALID_TOOL_NAME,
          invalidToolNameMessage(name, operation),
        );
      }
      const previous = entries.get(name);
      if (previous) {
        throw new ContractError(
          DUPLICATE_TOOL_NAME,
          duplicateToolNameMessage(name, previous.operation, operation),
        );
      }
      entries.set(name, {
        name,
        operation,
        paramHeaders: paramHeadersOf(operation),
      });
    }
    this.entries = entries;
    this.permissionNames = [
      ...new Set(
        [...entries.values()].flatMap(({ operation }) => operation.permissions),
      ),
    ].sort();
    this.names = new Map(
      [...entries.values()].map(({ name, operation }) => [operation.id, name]),
    );
  }

  /** Clients and models choose tools by their descriptions: name the tools without one. */
  private warnUndescribed(): void {
    const undescribed = this.tools(this.messages.fallbackLanguage()).filter(
      (tool) => tool.description === undefined,
    );
    if (undescribed.length > 0) {
      this.logger.warn(
        undescribedToolsMessage(
          undescribed.map((tool) => ({
            tool: tool.name,
            key: operationTextKeys(
              this.entries?.get(tool.name)?.operation.id ?? tool.name,
            ).description,
          })),
        ),
      );
    }
  }
}
