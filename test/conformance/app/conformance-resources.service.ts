import { Injectable } from '@nestjs/common';
import { Operation } from '@nestops/operations';
import { IsString } from 'class-validator';

/** A 1×1 transparent PNG. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The `{id}` of `test://template/{id}/data`. */
export class TemplateDataInput {
  @IsString()
  id: string;
}

/**
 * The conformance suite's resources, each an ordinary read-only operation
 * that `@Operation({ resource })` also publishes as a resource.
 */
@Injectable()
export class ConformanceResourcesService {
  /** `resources-read-text`: a string read as `text/plain` text. */
  @Operation({
    id: 'samples.get-static-text',
    readOnly: true,
    description: 'A static text resource.',
    resource: { uri: 'test://static-text', mimeType: 'text/plain' },
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  /** `resources-read-binary`: bytes read as a base64 `blob`. */
  @Operation({
    id: 'samples.get-static-binary',
    readOnly: true,
    description: 'A static binary resource (a PNG image).',
    resource: { uri: 'test://static-binary', mimeType: 'image/png' },
  })
  staticBinary(): Buffer {
    return PIXEL_PNG;
  }

  /** `resources-templates-read`: the template's `{id}` is the input's `id`. */
  @Operation({
    id: 'samples.get-template-data',
    readOnly: true,
    description: 'The data of one id, from a URI template.',
    resource: 'test://template/{id}/data',
  })
  templateData(input: TemplateDataInput): object {
    return {
      id: input.id,
      templateTest: true,
      data: `Data for ID: ${input.id}`,
    };
  }

  /** The resource `resources-subscribe` names (the server has no subscriptions). */
  @Operation({
    id: 'samples.get-watched',
    readOnly: true,
    description: 'A resource whose changes a client may want to follow.',
    resource: { uri: 'test://watched-resource', mimeType: 'text/plain' },
  })
  watched(): string {
    return 'This resource is watched.';
  }
}
