import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { OperationDefinition } from '@nestops/operations';
import {
  ContractError,
  OperationMessages,
  OperationRegistry,
  OperationTexts,
} from '@nestops/operations/internal';
import {
  McpToolCatalogue,
  type ToolReach,
} from '../tools/mcp-tool.catalogue.js';
import type {
  McpResource,
  McpResourceTemplate,
} from './mcp-resource.interface.js';
import { uriMatcher, type UriMatcher } from './resource-uri.js';

/** The content type of a resource that states none: the result as JSON. */
export const DEFAULT_RESOURCE_MIME_TYPE = 'application/json';

/** The catalogue code of `@Operation({ resource })` on an operation MCP does not publish. */
export const RESOURCE_NOT_ON_MCP = 'CONTRACT_VALIDATION_002';

/** An operation read as a resource. */
export interface ResourceEntry {
  readonly operation: OperationDefinition;
  /** The URI, or URI template. */
  readonly uri: string;
  /** Whether `uri` is a template. */
  readonly template: boolean;
  readonly mimeType: string;
  readonly matcher: UriMatcher;
}

/** A read's resource: its entry and its variables' values, decoded. */
export interface ResourceMatch {
  readonly entry: ResourceEntry;
  readonly values: Readonly<Record<string, string>>;
}

interface ResourceLists {
  readonly resources: readonly McpResource[];
  readonly templates: readonly McpResourceTemplate[];
}

/**
 * The resources of the application, built once at bootstrap from the
 * operations exposed on MCP that `@Operation({ resource })` also publishes
 * as a resource: fixed URIs for `resources/list`, templates for
 * `resources/templates/list`, named like their tools, with their texts in
 * each language (through `OperationTexts`, as tools have them). Building
 * fails the startup on a resource of an operation MCP does not publish.
 */
@Injectable()
export class McpResourceCatalogue implements OnApplicationBootstrap {
  private entries?: readonly ResourceEntry[];
  private readonly lists = new Map<string, ResourceLists>();
  private sameInEveryLanguage?: boolean;

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly registry: OperationRegistry,
    private readonly messages: OperationMessages,
    private readonly texts: OperationTexts,
    private readonly tools: McpToolCatalogue,
  ) {}

  /** Nest's bootstrap hook: builds the resources and each language's lists. */
  onApplicationBootstrap(): void {
    for (const language of this.messages.languages()) {
      this.listsIn(language);
    }
    this.isSameInEveryLanguage();
  }

  /** Whether the app has any resource or template. */
  hasAny(): boolean {
    return this.all().length > 0;
  }

  /** The concrete resources in `locale`, by URI, within `reach` when given. */
  resources(locale: string, reach?: ToolReach): readonly McpResource[] {
    return this.within(this.listsIn(locale).resources, reach, (r) => r.uri);
  }

  /** The resource templates in `locale`, by template, within `reach` when given. */
  templates(locale: string, reach?: ToolReach): readonly McpResourceTemplate[] {
    return this.within(
      this.listsIn(locale).templates,
      reach,
      (t) => t.uriTemplate,
    );
  }

  /**
   * Whether the lists are the same in every application language, so they
   * cannot depend on who asks unless listed per caller.
   */
  isSameInEveryLanguage(): boolean {
    if (this.sameInEveryLanguage === undefined) {
      const texts = this.messages
        .languages()
        .map((language) => JSON.stringify(this.listsIn(language)));
      this.sameInEveryLanguage = texts.every((text) => text === texts[0]);
    }
    return this.sameInEveryLanguage;
  }

  /**
   * @internal The resource `uri` names: a fixed URI equal to it, else the
   * template with the most literal characters that matches it.
   */
  find(uri: string): ResourceMatch | undefined {
    let found: ResourceMatch | undefined;
    for (const entry of this.all()) {
      const values = entry.matcher.match(uri);
      if (
        values &&
        (!found || entry.matcher.literals > found.entry.matcher.literals)
      ) {
        found = { entry, values };
      }
    }
    return found;
  }

  private all(): readonly ResourceEntry[] {
    if (!this.entries) {
      for (const operation of this.registry.list()) {
        if (operation.asResource && !operation.expose.includes('mcp')) {
          throw new ContractError(
            RESOURCE_NOT_ON_MCP,
            `Operation '${operation.id}' on ${operation.source}: resource '${operation.asResource.uri}' is read over MCP, but the operation is not exposed on MCP; add 'mcp' to its expose option, or remove its resource.`,
          );
        }
      }
      this.entries = this.registry.exposedOn('mcp').flatMap((operation) => {
        const resource = operation.asResource;
        return resource
          ? [
              {
                operation,
                uri: resource.uri,
                template: resource.variables.length > 0,
                mimeType: resource.mimeType ?? DEFAULT_RESOURCE_MIME_TYPE,
                matcher: uriMatcher(resource.uri),
              },
            ]
          : [];
      });
    }
    return this.entries;
  }

  private listsIn(locale: string): ResourceLists {
    let lists = this.lists.get(locale);
    if (!lists) {
      const resources: McpResource[] = [];
      const templates: McpResourceTemplate[] = [];
      for (const entry of this.all()) {
        const { operation, uri, mimeType } = entry;
        const { title, description } = this.texts.of(operation, locale);
        const described = {
          name: this.tools.nameOf(operation.id) ?? operation.id,
          ...(title !== undefined ? { title } : {}),
          ...(description !== undefined ? { description } : {}),
          mimeType,
        };
        if (entry.template) {
          templates.push(Object.freeze({ uriTemplate: uri, ...described }));
        } else {
          resources.push(Object.freeze({ uri, ...described }));
        }
      }
      const byKey =
        <T>(key: (item: T) => string) =>
        (a: T, b: T) =>
          key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      lists = Object.freeze({
        resources: Object.freeze(resources.sort(byKey((r) => r.uri))),
        templates: Object.freeze(templates.sort(byKey((t) => t.uriTemplate))),
      });
      this.lists.set(locale, lists);
    }
    return lists;
  }

  /** The items of `list` whose operation's permissions `reach` holds. */
  private within<T>(
    list: readonly T[],
    reach: ToolReach | undefined,
    uriOf: (item: T) => string,
  ): readonly T[] {
    if (!reach) {
      return list;
    }
    return list.filter((item) =>
      this.all().some(
        (entry) =>
          entry.uri === uriOf(item) &&
          entry.operation.permissions.every((permission) =>
            reach.held.has(permission),
          ),
      ),
    );
  }
}
