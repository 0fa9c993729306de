import { IsString } from 'class-validator';
import { JSONSchema } from '@nestops/operations';

/** `test_prompt_with_arguments`'s two arguments. */
export class PromptWithArgumentsInput {
  @IsString()
  @JSONSchema({ description: 'First test argument' })
  arg1!: string;

  @IsString()
  @JSONSchema({ description: 'Second test argument' })
  arg2!: string;
}

/** `test_prompt_with_embedded_resource`'s argument. */
export class PromptWithResourceInput {
  @IsString()
  @JSONSchema({ description: 'URI of the resource to embed' })
  resourceUri!: string;
}
