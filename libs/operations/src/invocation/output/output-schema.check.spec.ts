import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsEmail,
  IsEnum,
  IsInt,
  IsIP,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { JsonSchema } from '../../schema/json-schema.interface.js';
import { OperationSchemaFactory } from '../../schema/operation-schema.factory.js';
import { compileSchemaCheck, schemaCheckOf } from './output-schema.check.js';

enum Level {
  Low = 'low',
  High = 'high',
}

class CheckedLeaf {
  @IsString()
  @MinLength(2)
  @MaxLength(4)
  code: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => CheckedLeaf)
  @IsArray()
  children?: CheckedLeaf[];
}

class CheckedRoot {
  @IsInt()
  @Min(0)
  @Max(10)
  count: number;

  @IsPositive()
  price: number;

  @IsBoolean()
  flag: boolean;

  @IsEnum(Level)
  level: Level;

  @IsDateString()
  at: string;

  @IsDate()
  day: Date;

  @IsEmail()
  email: string;

  @IsUUID()
  id: string;

  @IsIP('4')
  ip: string;

  @Matches(/^[a-z]+$/)
  slug: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ArrayUnique()
  @IsInt({ each: true })
  numbers: number[];

  @ValidateNested()
  @Type(() => CheckedLeaf)
  leaf: CheckedLeaf;

  @IsOptional()
  @IsString()
  note?: string;
}

const GOOD = {
  count: 3,
  price: 0.5,
  flag: true,
  level: 'low',
  at: '2024-05-01T10:00:00.000Z',
  day: '2024-05-01',
  email: 'ada@example.com',
  id: '3f1e2d4c-5b6a-4789-8abc-def012345678',
  ip: '10.0.0.1',
  slug: 'abc',
  numbers: [1, 2],
  leaf: { code: 'ab', children: [{ code: 'cd', children: [] }] },
};

type Change = (value: Record<string, unknown>) => void;

const BAD: [string, Change, RegExp][] = [
  [
    'a missing property',
    (v) => delete v.count,
    /\(root\) must have required property 'count'/,
  ],
  [
    'an unknown property',
    (v) => (v.admin = true),
    /\(root\) must NOT have additional properties/,
  ],
  [
    'a fraction for an integer',
    (v) => (v.count = 1.5),
    /\/count must be integer/,
  ],
  ['null for a boolean', (v) => (v.flag = null), /\/flag must be boolean/],
  [
    'a date without time',
    (v) => (v.at = '2024-05-01'),
    /\/at must match format/,
  ],
  [
    'a short code two levels down',
    (v) =>
      ((v.leaf as { children: { code: string }[] }).children[0].code = 'x'),
    /\/leaf\/children\/0\/code must NOT have fewer than 2 characters/,
  ],
];

function changed(change: Change): Record<string, unknown> {
  const value = structuredClone(GOOD) as Record<string, unknown>;
  change(value);
  return value;
}

describe('compileSchemaCheck', () => {
  let check: (value: unknown) => string | undefined;

  beforeAll(() => {
    check = compileSchemaCheck(
      new OperationSchemaFactory().create(CheckedRoot) as JsonSchema,
    );
  });

  it('accepts a conforming value', () => {
    expect(check(GOOD)).toBeUndefined();
    expect(check(changed((v) => (v.note = 'hi')))).toBeUndefined();
  });

  it.each(BAD)('refuses %s and says where', (_case, change, problem) => {
    expect(check(changed(change))).toMatch(problem);
  });

  it.each([undefined, null, 'text', 42, []])(
    'refuses %j for an object',
    (value) => {
      expect(check(value)).toMatch(/^\(root\) must be object/);
    },
  );

  it('says where and what, never the value itself', () => {
    const secret = 'HUNTER2-secret';
    for (const problem of [
      check(changed((v) => (v.slug = secret))),
      check(changed((v) => (v.count = secret))),
      check(changed((v) => (v.email = secret))),
    ]) {
      expect(problem).toBeDefined();
      expect(problem).not.toContain(secret);
    }
  });
});

describe('schemaCheckOf', () => {
  it('gives one check per schema object, the same as compileSchemaCheck', () => {
    const schema = new OperationSchemaFactory().create(
      CheckedRoot,
    ) as JsonSchema;
    const check = schemaCheckOf(schema);
    expect(schemaCheckOf(schema)).toBe(check);
    expect(schemaCheckOf(structuredClone(schema))).not.toBe(check);
    expect(check(GOOD)).toBeUndefined();
    const bad = changed((v) => (v.count = 'many'));
    expect(check(bad)).toBe(compileSchemaCheck(schema)(bad));
  });

  it('compiles on the first value, not before', () => {
    // ajv's strict mode refuses an unknown keyword when it compiles.
    const schema = { type: 'object', notAKeyword: true } as JsonSchema;
    const check = schemaCheckOf(schema);
    expect(() => check({})).toThrow(/strict mode: unknown keyword/);
  });
});
