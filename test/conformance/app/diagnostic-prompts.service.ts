import { Injectable } from '@nestjs/common';
import { McpContent, Prompt, PromptMessages } from '@nestops/mcp';
import {
  PromptWithArgumentsInput,
  PromptWithResourceInput,
} from './prompts.dto';

/** A 1x1 PNG, the image of `test_prompt_with_image`. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The conformance suite's prompts, named as it gets them; the arguments of
 * `test_prompt_with_arguments` complete from nothing (the suite's
 * `completion-complete` asks for `arg1`).
 */
@Injectable()
export class DiagnosticPromptsService {
  @Prompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments.',
  })
  simple(): PromptMessages {
    return new PromptMessages().user('This is a simple prompt for testing.');
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments.',
  })
  withArguments(input: PromptWithArgumentsInput): PromptMessages {
    return new PromptMessages().user(
      `Prompt with arguments: arg1='${input.arg1}', arg2='${input.arg2}'`,
    );
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
  })
  withEmbeddedResource(input: PromptWithResourceInput): PromptMessages {
    return new PromptMessages()
      .user(
        McpContent.resource({
          uri: input.resourceUri,
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        }),
      )
      .user('Please process the embedded resource above.');
  }

  @Prompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
  })
  withImage(): PromptMessages {
    return new PromptMessages()
      .user(McpContent.image(PIXEL, 'image/png'))
      .user('Please analyze the image above.');
  }
}
