import { Exclude, Expose } from 'class-transformer';
import { IsDateString, IsInt, IsOptional, IsString } from 'class-validator';
import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import { OperationSchemaFactory } from '../../schema/operation-schema.factory.js';
import { resultSerializerOf, serializeResult } from './output-contract.js';
import { OutputContractError } from './output-contract.error.js';

class MemberDto {
  @IsInt()
  id: number;

  @IsString()
  fullName: string;

  @IsOptional()
  @IsString()
  nickname?: string;

  @IsDateString()
  joinedAt: string;
}

/** As an ORM entity would be: no `@Expose()` needed, its own decorators count. */
class MemberEntity {
  id = 4;
  first = 'Grace';
  last = 'Hopper';
  passwordHash = 'hash';
  @Exclude()
  nickname = 'amazing';
  joinedAt = new Date('2024-05-01T10:00:00.000Z');

  @Expose()
  get fullName(): string {
    return `${this.first} ${this.last}`;
  }
}

function definition(withOutput: boolean): OperationDefinition {
  return {
    id: 'members.get',
    output: withOutput ? MemberDto : undefined,
    outputSchema: withOutput
      ? new OperationSchemaFactory().create(MemberDto)
      : undefined,
  } as OperationDefinition;
}

describe('serializeResult with an output DTO', () => {
  const members = definition(true);

  it("serialises a class instance with class-transformer, then keeps the DTO's properties, as JSON", () => {
    const { value, json } = serializeResult(members, new MemberEntity());
    expect(value).toEqual({
      id: 4,
      fullName: 'Grace Hopper',
      joinedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(json).toBe(JSON.stringify(value));
  });

  it.each([
    [undefined, 'it returned undefined'],
    [null, 'it returned null'],
    [[], '(root) must be object'],
    [{ id: 1, fullName: 'x' }, "(root) must have required property 'joinedAt'"],
    [
      { id: 1, fullName: 'x', joinedAt: 'soon' },
      '(root)/joinedAt must match format "date-time"',
    ],
  ])('refuses %j: %s', (value, problem) => {
    expect(() => serializeResult(members, value)).toThrow(
      new OutputContractError('members.get', 'MemberDto', problem),
    );
  });

  it('refuses what JSON cannot hold', () => {
    expect(() =>
      serializeResult(members, {
        id: 10n,
        fullName: 'x',
        joinedAt: new Date(),
      }),
    ).toThrow(/it cannot be written as JSON \(TypeError: .*BigInt/);
  });

  it('compiles once per definition', () => {
    expect(resultSerializerOf(members)).toBe(resultSerializerOf(members));
  });
});

describe('serializeResult without an output DTO', () => {
  const free = definition(false);

  it('serialises with class-transformer and keeps everything else', () => {
    expect(serializeResult(free, new MemberEntity()).value).toMatchObject({
      id: 4,
      passwordHash: 'hash',
      fullName: 'Grace Hopper',
    });
    expect(serializeResult(free, { a: 1 })).toEqual({
      value: { a: 1 },
      json: '{"a":1}',
    });
  });

  it('answers undefined with null', () => {
    expect(serializeResult(free, undefined)).toEqual({
      value: null,
      json: 'null',
    });
  });

  it('skips class-transformer only for plain data, which it would copy unchanged', () => {
    const plain = { items: [{ id: 1, tags: ['a'], note: undefined }], n: null };
    expect(serializeResult(free, plain).value).toBe(plain);
    class Box {
      constructor(readonly at = new Date(0)) {}
    }
    for (const value of [new Box(), { nested: new Box() }, [new Date(0)]]) {
      expect(serializeResult(free, value).value).not.toBe(value);
    }
    const withToJson = { toJSON: () => 'x' };
    expect(serializeResult(free, withToJson).value).not.toBe(withToJson);
  });

  it('writes each result once and hands its text to the carrier with it', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const { value, json } = serializeResult(free, { a: [1, 2] });
    expect(stringify).toHaveBeenCalledTimes(1);
    stringify.mockRestore();
    expect(json).toBe('{"a":[1,2]}');
    expect(JSON.parse(json)).toEqual(value);
    expect(serializeResult(free, 'text').json).toBe('"text"');
    expect(serializeResult(free, undefined).json).toBe('null');
  });
});
