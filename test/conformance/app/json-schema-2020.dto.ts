import { JSONSchema } from '@nestops/operations';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';

/**
 * A nested DTO, published under the tool schema's `$defs` by its class name:
 * lower case because the suite looks for `$defs.address`.
 */
@JSONSchema({ $anchor: 'addressDef' })
export class address {
  @IsOptional()
  @IsString()
  street?: string;

  @IsOptional()
  @IsString()
  city?: string;
}

/**
 * The input of `json_schema_2020_12_tool`: the properties come from the
 * class-validator decorators, the composition and conditional keywords from
 * the class's `@JSONSchema` (published as given; class-validator checks the
 * properties).
 */
@JSONSchema({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: {
    properties: { contactMethod: { const: 'phone' } },
    required: ['contactMethod'],
  },
  then: { required: ['phone'] },
  else: { required: ['email'] },
})
export class JsonSchema2020Input {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => address)
  address?: address;

  @IsOptional()
  @IsIn(['phone', 'email'])
  contactMethod?: 'phone' | 'email';

  @IsOptional()
  @IsString()
  phone?: string;

  @IsOptional()
  @IsString()
  email?: string;
}
