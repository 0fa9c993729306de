import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsEnum,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validate,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../errors/failure-text.js';
import { interpolate, libraryText } from '../../i18n/library-messages.js';
import { validationFailure } from '../../errors/failure-text.js';
import { violationsOf } from './validation-violations.js';

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

class Line {
  @IsString()
  @MaxLength(3)
  sku: string;

  @IsInt()
  @Max(9)
  quantity: number;
}

class Order {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsOptional()
  name?: string;

  @IsEnum(Colour)
  colour: Colour;

  @Min(5)
  amount: number;

  @ValidateNested()
  @Type(() => Line)
  line: Line;

  @IsString({ each: true })
  tags: string[];
}

async function violationsFor(plain: object) {
  const errors = await validate(plainToInstance(Order, plain), {
    validationError: { target: true },
    forbidUnknownValues: true,
  });
  return violationsOf(errors);
}

describe('violationsOf', () => {
  it("names each constraint with the decorator's arguments, nested paths prefixed", async () => {
    const violations = await violationsFor({
      colour: 'green',
      amount: 1,
      line: { sku: 'ABCD', quantity: 10 },
      tags: ['a'],
    });
    expect(
      violations.map(({ property, constraint, params }) => ({
        property,
        constraint,
        params,
      })),
    ).toEqual([
      {
        property: 'colour',
        constraint: 'isEnum',
        params: { constraint1: 'red, blue', constraint2: 'red, blue' },
      },
      { property: 'amount', constraint: 'min', params: { constraint1: '5' } },
      {
        property: 'line.sku',
        constraint: 'maxLength',
        params: { constraint1: '3' },
      },
      {
        property: 'line.quantity',
        constraint: 'max',
        params: { constraint1: '9' },
      },
    ]);
  });

  it('keeps class-validator messages for `each` constraints and uses them as written', async () => {
    const violations = await violationsFor({
      colour: 'red',
      amount: 5,
      line: { sku: 'A', quantity: 1 },
      tags: [1],
    });
    expect(violations).toEqual([
      expect.objectContaining({
        property: 'tags',
        constraint: 'isString',
        custom: true,
        message: 'each value in tags must be a string',
      }),
    ]);
  });

  it('renders the English text from the library catalogue, as class-validator words it', async () => {
    const violations = await violationsFor({
      colour: 'green',
      amount: 1,
      line: 'not an object',
      tags: [],
    });
    expect(describeFailure(validationFailure(violations))).toBe(
      'VALIDATION_INVALID_001: Invalid input: colour must be one of the following values: red, blue; amount must not be less than 5; nested property line must be either object or array',
    );
  });

  it('names a nested field in Chinese through a lookup', async () => {
    const violations = await violationsFor({
      colour: 'red',
      amount: 5,
      line: { sku: 'ABCD', quantity: 1 },
      tags: [],
    });
    const zh: Record<string, string> = {
      'nestops.errors.VALIDATION_INVALID_001': '输入无效：{detail}',
      'nestops.validation.maxLength':
        '{property} 的长度不能超过 {constraint1} 个字符',
    };
    const text = describeFailure(validationFailure(violations), (key, args) =>
      zh[key]?.replace(/\{(\w+)\}/g, (_, name: string) => String(args[name])),
    );
    expect(text).toBe(
      'VALIDATION_INVALID_001: 输入无效：line.sku 的长度不能超过 3 个字符',
    );
  });
});

/** Just the texts, in English or in the library's Chinese. */
async function textsFor(plain: object, language = 'en-US') {
  const failure = validationFailure(await violationsFor(plain));
  return describeFailure(failure, (key, args) => {
    const text = libraryText(key, language);
    return text === undefined ? undefined : interpolate(text, args);
  });
}

const VALID = {
  colour: 'red',
  amount: 5,
  line: { sku: 'A', quantity: 1 },
  tags: [],
};

describe('one clause per field that is absent or of the wrong type', () => {
  it('reports each absent field once as required, nested ones with their path', async () => {
    // `line` has only @ValidateNested(), which class-validator skips when absent.
    expect(await textsFor({})).toBe(
      'VALIDATION_INVALID_001: Invalid input: colour is required; amount is required; tags is required',
    );
    expect(await textsFor({ ...VALID, line: {} })).toBe(
      'VALIDATION_INVALID_001: Invalid input: line.sku is required; line.quantity is required',
    );
  });

  it('words required in Chinese with the library texts', async () => {
    expect(await textsFor({ ...VALID, line: { sku: 'A' } }, 'zh-CN')).toBe(
      'VALIDATION_INVALID_001: 输入无效：line.quantity 为必填项',
    );
  });

  it('keeps the constraint and the English message of a required violation apart for translation', async () => {
    const [violation] = await violationsFor({ ...VALID, amount: undefined });
    expect(violation).toEqual({
      property: 'amount',
      constraint: 'required',
      params: {},
      message: 'amount is required',
    });
  });

  it('reports a value of the wrong type as its type rule only', async () => {
    expect(
      await textsFor({
        ...VALID,
        name: 42,
        line: { sku: 7, quantity: 'ten' },
      }),
    ).toBe(
      'VALIDATION_INVALID_001: Invalid input: name must be a string; line.sku must be a string; line.quantity must be an integer number',
    );
  });

  it('treats null as a value of the wrong type, not as absent', async () => {
    expect(await textsFor({ ...VALID, line: { sku: null, quantity: 1 } })).toBe(
      'VALIDATION_INVALID_001: Invalid input: line.sku must be a string',
    );
  });

  it('reports a nested object of the wrong type once', async () => {
    expect(await textsFor({ ...VALID, line: 'not an object' })).toBe(
      'VALIDATION_INVALID_001: Invalid input: nested property line must be either object or array',
    );
  });

  it('reports every rule a value of the right type breaks', async () => {
    expect(await textsFor({ ...VALID, name: '', amount: 1 })).toBe(
      'VALIDATION_INVALID_001: Invalid input: name should not be empty; amount must not be less than 5',
    );
    expect(
      await textsFor({ ...VALID, line: { sku: 'ABCD', quantity: 1 } }),
    ).toBe(
      'VALIDATION_INVALID_001: Invalid input: line.sku must be shorter than or equal to 3 characters',
    );
  });

  it('keeps a failure that names no field (an unknown value) as class-validator reports it', async () => {
    const errors = await validate({} as object, { forbidUnknownValues: true });
    expect(violationsOf(errors).map((v) => v.constraint)).toEqual([
      'unknownValue',
    ]);
  });
});
