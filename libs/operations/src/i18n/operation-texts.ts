import { Injectable } from '@nestjs/common';
import type { OperationDefinition } from '../interfaces/operation-contract.js';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import { OperationMessages } from './operation-messages.js';
import { operationTextKeys } from './operation-text-keys.js';
import { SchemaDescriptions } from './schema-descriptions.js';

/**
 * What an operation publishes in one language: its title and description
 * and its schemas with their property descriptions.
 *
 * @publicApi
 */
export interface LocalizedOperation {
  /** The title in that language, if the catalogue or the decorator has one. */
  readonly title?: string;
  /** The description in that language, if the catalogue or the decorator has one. */
  readonly description?: string;
  /** The input schema, with its property descriptions in that language. */
  readonly inputSchema?: JsonSchema;
  /** The output schema, with its property descriptions in that language. */
  readonly outputSchema?: JsonSchema;
}

/**
 * The texts carriers publish for an operation, per language: the message
 * catalogue's `<operation id>.title` / `.description` where it has them,
 * else `@Operation({ title, description })`; each schema property's
 * `dto.<class name>.<property>`, else its `@JSONSchema({ description })`.
 * Without a catalogue, the decorators' texts in every language.
 *
 * Carriers build their lists once per language at startup with it (the
 * catalogue is read once per class and language), never per request.
 *
 * @publicApi
 */
@Injectable()
export class OperationTexts {
  private readonly schemas: SchemaDescriptions;

  constructor(private readonly messages: OperationMessages) {
    this.schemas = new SchemaDescriptions({
      text: (key, locale) => this.messages.text(key, locale),
      has: (key, locale) => this.messages.hasTexts(key, locale),
    });
  }

  /** The operation's texts and schemas in `locale`, an application language. */
  of(operation: OperationDefinition, locale: string): LocalizedOperation {
    const keys = operationTextKeys(operation.id);
    const title = this.messages.text(keys.title, locale) ?? operation.title;
    const description =
      this.messages.text(keys.description, locale) ?? operation.description;
    const { input, output, inputSchema, outputSchema } = operation;
    return {
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(input && inputSchema
        ? { inputSchema: this.schemas.localize(inputSchema, input, locale) }
        : {}),
      ...(output && outputSchema
        ? { outputSchema: this.schemas.localize(outputSchema, output, locale) }
        : {}),
    };
  }
}
