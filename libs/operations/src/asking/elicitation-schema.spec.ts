import { IsArray, IsIn, IsInt, IsString } from 'class-validator';
import { JSONSchema } from '../schema/json-schema.decorator.js';
import { OperationSchemaFactory } from '../schema/operation-schema.factory.js';
import { elicitationSchemaOf } from './elicitation-schema.js';

const TITLES = [
  { const: 'a', title: 'Alpha' },
  { const: 'b', title: 'Beta' },
];

/** MCP's five enum shapes, each checked by `@IsIn`, titled by `@JSONSchema`. */
class EnumsForm {
  @IsIn(['x', 'y'])
  plain!: string;

  @IsIn(['a', 'b'])
  @JSONSchema({ oneOf: TITLES })
  titled!: string;

  @IsIn(['a', 'b'])
  @JSONSchema({ enumNames: ['Alpha', 'Beta'] })
  legacy!: string;

  @IsArray()
  @IsIn(['x', 'y'], { each: true })
  many!: string[];

  @IsArray()
  @IsIn(['a', 'b'], { each: true })
  @JSONSchema({ items: { anyOf: TITLES }, default: ['a'] })
  titledMany!: string[];
}

class NestedListForm {
  @IsArray()
  @IsInt({ each: true })
  counts!: number[];
}

function requestedSchemaOf(dto: new () => unknown): Record<string, unknown> {
  const schema = new OperationSchemaFactory().create(dto);
  return elicitationSchemaOf(schema!) as Record<string, unknown>;
}

describe('elicitationSchemaOf', () => {
  it('sends each enum in the one shape MCP defines for it', () => {
    const { properties } = requestedSchemaOf(EnumsForm) as {
      properties: Record<string, unknown>;
    };
    expect(properties).toEqual({
      plain: { type: 'string', enum: ['x', 'y'] },
      titled: { type: 'string', oneOf: TITLES },
      legacy: {
        type: 'string',
        enum: ['a', 'b'],
        enumNames: ['Alpha', 'Beta'],
      },
      many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
      titledMany: { type: 'array', items: { anyOf: TITLES }, default: ['a'] },
    });
  });

  it('refuses a list of anything but strings of an enum', () => {
    expect(() => requestedSchemaOf(NestedListForm)).toThrow(
      "its property 'counts' is a list of something else than strings of an enum",
    );
  });

  it('keeps a string property as its keywords say', () => {
    class NameForm {
      @IsString()
      @JSONSchema({ description: 'Your name', pattern: '^[A-Z]' })
      name!: string;
    }
    expect(requestedSchemaOf(NameForm)).toEqual({
      type: 'object',
      properties: { name: { type: 'string', description: 'Your name' } },
      required: ['name'],
    });
  });
});
