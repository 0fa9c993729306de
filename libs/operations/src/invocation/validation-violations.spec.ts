import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsEnum,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validate,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../i18n/failure-text.js';
import { validationFailure } from '../errors/operation-failure.js';
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
