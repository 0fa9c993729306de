import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from '../schema/json-schema.decorator.js';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import { OperationSchemaFactory } from '../schema/operation-schema.factory.js';
import { SchemaDescriptions } from './schema-descriptions.js';

class DescribedLine {
  @JSONSchema({ description: 'Stock keeping unit' })
  @IsString()
  sku: string;

  @IsInt()
  quantity: number;
}

class DescribedPage {
  @JSONSchema({ description: 'Orders per page' })
  @IsOptional()
  @IsInt()
  limit?: number;
}

class DescribedSearch extends DescribedPage {
  @IsString()
  text: string;
}

class DescribedOrder {
  @JSONSchema({ description: 'The name on the invoice' })
  @IsString()
  name: string;

  @JSONSchema({ description: 'The order lines' })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DescribedLine)
  lines: DescribedLine[];
}

class DescribedReturn {
  @ValidateNested()
  @Type(() => DescribedLine)
  line: DescribedLine;
}

@JSONSchema({ description: 'Nothing translated' })
class Undescribed {
  @IsString()
  code: string;
}

/** A catalogue of plain texts by language and key, counting the keys read. */
function catalogue(texts: Record<string, Record<string, string>>) {
  const reads: string[] = [];
  const own = (locale: string) => texts[locale] ?? {};
  const descriptions = new SchemaDescriptions({
    text: (key, locale) => {
      reads.push(`${locale}:${key}`);
      return Object.hasOwn(own(locale), key) ? own(locale)[key] : undefined;
    },
    has: (key, locale) => {
      reads.push(`${locale}:${key}?`);
      return Object.keys(own(locale)).some((k) => k.startsWith(`${key}.`));
    },
  });
  return { reads, descriptions };
}

const ZH = {
  'zh-CN': {
    'dto.DescribedOrder.name': '发票上的名称',
    'dto.DescribedLine.sku': '库存单位',
    'dto.DescribedLine.quantity': '数量',
    'dto.DescribedPage.limit': '每页订单数',
  },
};

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

describe('property descriptions', () => {
  let schemas: OperationSchemaFactory;
  let order: JsonSchema;
  let returned: JsonSchema;

  beforeAll(() => {
    schemas = new OperationSchemaFactory();
    order = schemas.create(DescribedOrder)!;
    returned = schemas.create(DescribedReturn)!;
  });

  it("publishes @JSONSchema's description on the property, in the root and under $defs", () => {
    expect(order.properties?.name).toEqual({
      type: 'string',
      description: 'The name on the invoice',
    });
    expect(order.properties?.lines).toMatchObject({
      type: 'array',
      description: 'The order lines',
    });
    expect(order.$defs?.DescribedLine.properties?.sku).toEqual({
      type: 'string',
      description: 'Stock keeping unit',
    });
  });

  it('inherits a described property from the parent DTO', () => {
    expect(schemas.create(DescribedSearch)?.properties?.limit).toMatchObject({
      description: 'Orders per page',
    });
  });

  it("takes the catalogue's text of dto.<class>.<property> in its language, in the root and under $defs", () => {
    const { descriptions } = catalogue(ZH);
    const zh = descriptions.localize(order, DescribedOrder, 'zh-CN');
    expect(zh.properties?.name.description).toBe('发票上的名称');
    expect(zh.properties?.lines.description).toBe('The order lines');
    expect(zh.$defs?.DescribedLine.properties?.sku.description).toBe(
      '库存单位',
    );
    expect(zh.$defs?.DescribedLine.properties?.quantity).toEqual({
      type: 'integer',
      description: '数量',
    });
  });

  it("falls back to an ancestor class's key", () => {
    const { descriptions } = catalogue(ZH);
    const search = schemas.create(DescribedSearch)!;
    expect(
      descriptions.localize(search, DescribedSearch, 'zh-CN').properties?.limit
        .description,
    ).toBe('每页订单数');
  });

  it('leaves the published schema as it is, and returns it where the catalogue adds nothing', () => {
    const { descriptions } = catalogue(ZH);
    expect(descriptions.localize(order, DescribedOrder, 'en-US')).toBe(order);
    const undescribed = schemas.create(Undescribed)!;
    expect(undescribed.description).toBe('Nothing translated');
    expect(descriptions.localize(undescribed, Undescribed, 'zh-CN')).toBe(
      undescribed,
    );
    descriptions.localize(order, DescribedOrder, 'zh-CN');
    expect(order.properties?.name.description).toBe('The name on the invoice');
  });

  it('reads each class once per language, however many documents use it', () => {
    const { descriptions, reads } = catalogue(ZH);
    descriptions.localize(order, DescribedOrder, 'zh-CN');
    descriptions.localize(returned, DescribedReturn, 'zh-CN');
    descriptions.localize(order, DescribedOrder, 'zh-CN');
    const lineReads = reads.filter((read) => read.includes('DescribedLine'));
    expect(lineReads).toEqual([
      'zh-CN:dto.DescribedLine?',
      'zh-CN:dto.DescribedLine.sku',
      'zh-CN:dto.DescribedLine.quantity',
    ]);
    const count = reads.length;
    descriptions.localize(order, DescribedOrder, 'zh-CN');
    expect(reads).toHaveLength(count);
  });

  it('gives frozen documents that stay valid JSON Schema 2020-12 and still validate as before', () => {
    const { descriptions } = catalogue(ZH);
    const zh = descriptions.localize(order, DescribedOrder, 'zh-CN');
    expect(Object.isFrozen(zh)).toBe(true);
    expect(Object.isFrozen(zh.$defs?.DescribedLine.properties?.sku)).toBe(true);
    const ajv = strictAjv();
    for (const schema of [order, zh]) {
      const validate = ajv.compile(schema);
      expect(validate({ name: 'n', lines: [{ sku: 'a', quantity: 1 }] })).toBe(
        true,
      );
      expect(validate({ name: 'n', lines: [{ sku: 1, quantity: 1 }] })).toBe(
        false,
      );
    }
  });

  it('reads no property key of a class the catalogue has no group for, nor any in a language without dto texts', () => {
    const { descriptions, reads } = catalogue(ZH);
    descriptions.localize(returned, DescribedReturn, 'zh-CN');
    expect(reads.filter((read) => read.includes('DescribedReturn'))).toEqual([
      'zh-CN:dto.DescribedReturn?',
    ]);
    descriptions.localize(order, DescribedOrder, 'en-US');
    expect(reads.filter((read) => read.startsWith('en-US'))).toEqual([
      'en-US:dto?',
    ]);
  });
});
