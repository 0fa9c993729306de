import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { ContractError } from '../errors/contract.error.js';
import type { OperationOptions } from '../interfaces/operation-contract.js';
import { createOperationDefinition } from '../operation-definition.factory.js';
import { JSONSchema } from '../schema/json-schema.decorator.js';
import { OperationSchemaFactory } from '../schema/operation-schema.factory.js';

class OrderIdDto {
  @IsInt()
  id!: number;
}

class DeliveryDto {
  @JSONSchema({ title: 'Slot', default: 'morning' })
  @IsIn(['morning', 'evening'])
  slot!: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsOptional()
  @Matches(/^[A-Z]{2}$/)
  country?: string;

  @IsBoolean()
  ring!: boolean;
}

class AddressDto {
  @IsString()
  street!: string;
}

class NestedDto {
  @ValidateNested()
  @Type(() => AddressDto)
  address!: AddressDto;
}

class ListDto {
  @IsArray()
  @IsInt({ each: true })
  counts!: number[];
}

class Undecorated {
  name!: string;
}

function define(options: Omit<OperationOptions, 'id' | 'input'>) {
  return createOperationDefinition(
    { id: 'orders.ship', input: OrderIdDto, ...options },
    'OrdersService.ship',
    undefined,
    new OperationSchemaFactory(),
  );
}

describe('confirm, elicits and requires of @Operation()', () => {
  it('has no asks when it states none', () => {
    expect(define({})).not.toHaveProperty('asks');
  });

  it('keeps each form with its requestedSchema: only the keywords MCP allows', () => {
    const asks = define({ elicits: [DeliveryDto], confirm: true }).asks;
    expect(asks?.confirm).toBe(true);
    expect(asks?.requires).toEqual([]);
    expect(asks?.elicits.get(DeliveryDto)).toEqual({
      type: 'object',
      properties: {
        slot: {
          type: 'string',
          title: 'Slot',
          default: 'morning',
          enum: ['morning', 'evening'],
        },
        email: { type: 'string', format: 'email' },
        country: { type: 'string' },
        ring: { type: 'boolean' },
      },
      required: ['slot', 'ring'],
    });
  });

  it.each([
    [
      NestedDto,
      /elicits NestedDto, which cannot be an elicitation form: its property 'address' is a nested object/,
    ],
    [
      ListDto,
      /elicits ListDto, which cannot be an elicitation form: its property 'counts' is a list of something else/,
    ],
    [
      Undecorated,
      /elicits Undecorated, which has no class-validator decorators/,
    ],
  ])(
    'stops startup for a form MCP cannot ask (%o), naming it',
    (dto, message) => {
      expect(() => define({ elicits: [dto] })).toThrow(ContractError);
      expect(() => define({ elicits: [dto] })).toThrow(message);
    },
  );

  it.each([
    [{ confirm: 'yes' }, /confirm must be true or false/],
    [
      { requires: ['camera'] },
      /requires must list capabilities among elicitation, elicitation.url, sampling, roots/,
    ],
    [{ elicits: ['DeliveryDto'] }, /elicits must list DTO classes/],
  ])('refuses %o', (options, message) => {
    expect(() => define(options as never)).toThrow(message);
  });
});
