import 'reflect-metadata';
import { Type } from 'class-transformer';
import { createRequire } from 'node:module';
import {
  assertClassTransformerInternals,
  classTransformerStorage,
  loadClassTransformerStorage,
  typeMetadataOf,
} from './class-transformer.adapter.js';

const VERSION = () => 'class-transformer 9.9.9';
const PREFIX =
  "class-transformer 9.9.9 lacks what @nestops/operations needs to read DTOs' @Type(), @Expose() and @Exclude() for their schemas and input checks: ";

describe('assertClassTransformerInternals', () => {
  it('accepts the installed storage', () => {
    expect(() => assertClassTransformerInternals()).not.toThrow();
  });

  it('names the module when the installed release has no class-transformer/cjs/storage', () => {
    expect(() =>
      assertClassTransformerInternals(() => undefined, VERSION),
    ).toThrow(`${PREFIX}class-transformer/cjs/storage. `);
  });

  it('names the export when the module has no defaultMetadataStorage', () => {
    expect(() => assertClassTransformerInternals(() => ({}), VERSION)).toThrow(
      `${PREFIX}class-transformer/cjs/storage (defaultMetadataStorage). `,
    );
  });

  it('names each method the storage lacks', () => {
    const { defaultMetadataStorage } = loadClassTransformerStorage() as {
      defaultMetadataStorage: object;
    };
    const without = Object.create(defaultMetadataStorage, {
      findTypeMetadata: { value: undefined },
      getExposedMetadatas: { value: 'moved' },
    }) as object;

    expect(() =>
      assertClassTransformerInternals(
        () => ({ defaultMetadataStorage: without }),
        VERSION,
      ),
    ).toThrow(
      `${PREFIX}defaultMetadataStorage.findTypeMetadata, defaultMetadataStorage.getExposedMetadatas. `,
    );
  });

  it('names the installed version by default', () => {
    const { version } = createRequire(__filename)(
      'class-transformer/package.json',
    ) as { version: string };

    expect(() => assertClassTransformerInternals(() => undefined)).toThrow(
      `class-transformer ${version} lacks what @nestops/operations needs`,
    );
  });
});

describe('typeMetadataOf', () => {
  it("reads a property's @Type() from the storage the decorators write to", () => {
    class Line {}
    class Order {
      @Type(() => Line)
      lines: Line[];
    }

    expect(typeMetadataOf(Order, 'lines')?.typeFunction()).toBe(Line);
    expect(typeMetadataOf(Order, 'other')).toBeUndefined();
    expect(classTransformerStorage()).toBe(
      loadClassTransformerStorage()?.defaultMetadataStorage,
    );
  });
});
