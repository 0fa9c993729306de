import { JSONSchema } from '@nestops/operations';
import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
} from 'class-validator';

/** `test_elicitation`'s argument. */
export class ElicitationInput {
  @IsString()
  @JSONSchema({ description: 'The message to show the user' })
  message!: string;
}

/** `test_sampling`'s argument. */
export class SamplingInput {
  @IsString()
  @JSONSchema({ description: 'The prompt to send to the LLM' })
  prompt!: string;
}

/** The form `test_elicitation` asks the user to fill in. */
export class UserInfoForm {
  @IsString()
  @JSONSchema({ description: "User's response" })
  username!: string;

  @IsString()
  @JSONSchema({ description: "User's email address" })
  email!: string;
}

/** SEP-1034: a form whose every primitive type has a default. */
export class DefaultsForm {
  @IsString()
  @JSONSchema({ default: 'John Doe' })
  name!: string;

  @IsInt()
  @JSONSchema({ default: 30 })
  age!: number;

  @IsNumber()
  @JSONSchema({ default: 95.5 })
  score!: number;

  @IsIn(['active', 'inactive', 'pending'])
  @JSONSchema({ default: 'active' })
  status!: string;

  @IsBoolean()
  @JSONSchema({ default: true })
  verified!: boolean;
}

const TITLED = ['value1', 'value2', 'value3'];

/**
 * SEP-1330: the five enum forms. `@IsIn` checks the answer; `@JSONSchema`
 * titles the values (`oneOf`, `items.anyOf`, the legacy `enumNames`), and
 * the requested schema keeps the titled form alone.
 */
export class EnumsForm {
  @IsIn(['option1', 'option2', 'option3'])
  untitledSingle!: string;

  @IsIn(TITLED)
  @JSONSchema({
    oneOf: [
      { const: 'value1', title: 'First Option' },
      { const: 'value2', title: 'Second Option' },
      { const: 'value3', title: 'Third Option' },
    ],
  })
  titledSingle!: string;

  @IsIn(['opt1', 'opt2', 'opt3'])
  @JSONSchema({ enumNames: ['Option One', 'Option Two', 'Option Three'] })
  legacyEnum!: string;

  @IsArray()
  @ArrayUnique()
  @IsIn(['option1', 'option2', 'option3'], { each: true })
  untitledMulti!: string[];

  @IsArray()
  @ArrayUnique()
  @IsIn(TITLED, { each: true })
  @JSONSchema({
    items: {
      anyOf: [
        { const: 'value1', title: 'First Choice' },
        { const: 'value2', title: 'Second Choice' },
        { const: 'value3', title: 'Third Choice' },
      ],
    },
  })
  titledMulti!: string[];
}

/** The name the 2026-07-28 scenarios ask for. */
export class NameForm {
  @IsString()
  name!: string;
}

/** `input-required-result-request-state`'s confirmation. */
export class OkForm {
  @IsBoolean()
  ok!: boolean;
}

/** `input-required-result-multi-round`'s second question. */
export class ColorForm {
  @IsString()
  color!: string;
}

/** `input-required-result-non-tool-request`'s question, asked by a prompt. */
export class PromptContextForm {
  @IsString()
  context!: string;
}

/** `confirm_delete`'s question. */
export class ConfirmForm {
  @IsBoolean()
  confirm!: boolean;
}

/** `multi_input`'s two questions, each answered with both fields. */
export class PartialForm {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @IsBoolean()
  confirm?: boolean;
}
