// The "many operations" part of the library's benchmark app: `count - 1`
// generated operations (ids `catalog.genNNNN.get`), each with its own input
// DTO class, spread over providers of 50 methods, next to `items.list`; and
// their nestjs-i18n catalogue in en-US and zh-CN (a title and a description
// per tool), written into a directory of the caller's choosing.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const PER_PROVIDER = 50;

/** Id of the n-th generated operation (1-based). */
const generatedId = (n) => `catalog.gen${String(n).padStart(4, '0')}.get`;

/** Writes `<dir>/<lang>/{items,catalog}.json` for `count` operations in all. */
function writeCatalogue(dir, count) {
  const languages = {
    'en-US': {
      itemsTitle: 'List items',
      itemsDescription:
        'Lists up to ten items of a category from the in-memory catalogue.',
      title: (n) => `Get catalogue entry ${n}`,
      description: (n) =>
        `Reads entry ${n} of the generated catalogue and answers it with its id, name, count and flag.`,
    },
    'zh-CN': {
      itemsTitle: '列出商品',
      itemsDescription: '从内存目录中列出某一类别的最多十个商品。',
      title: (n) => `读取目录条目 ${n}`,
      description: (n) =>
        `读取生成目录中的第 ${n} 个条目，并返回它的编号、名称、数量和标记。`,
    },
  };
  for (const [lang, text] of Object.entries(languages)) {
    mkdirSync(join(dir, lang), { recursive: true });
    writeFileSync(
      join(dir, lang, 'items.json'),
      JSON.stringify({
        list: { title: text.itemsTitle, description: text.itemsDescription },
      }),
    );
    const catalog = {};
    for (let n = 1; n < count; n++) {
      const [, gen] = generatedId(n).split('.');
      catalog[gen] = {
        get: { title: text.title(n), description: text.description(n) },
      };
    }
    writeFileSync(join(dir, lang, 'catalog.json'), JSON.stringify(catalog));
  }
}

/**
 * Provider classes holding `count - 1` generated operations, each with its
 * own input DTO class (so the app has `count` DTO classes with
 * `items.list`'s); with `shared`, all of them take one input DTO class and
 * answer one output DTO class instead (three DTO classes in all).
 */
function generatedProviders(count, { shared = false } = {}) {
  const { Injectable } = require('@nestjs/common');
  const {
    IsBoolean,
    IsInt,
    IsOptional,
    IsString,
    MaxLength,
    Min,
  } = require('class-validator');
  const { Operation } = require('@nestops/operations');
  const { decorateProperties } = require('./nest-common.cjs');
  const inputDto = (name) =>
    decorateProperties(
      Object.defineProperty(class {}, 'name', { value: name }),
      {
        name: [String, IsString(), MaxLength(40)],
        count: [Number, IsInt(), Min(0)],
        flag: [Boolean, IsOptional(), IsBoolean()],
      },
    );
  const sharedInput = shared && inputDto('CatalogGetDto');
  const sharedOutput =
    shared &&
    decorateProperties(
      Object.defineProperty(class {}, 'name', { value: 'CatalogEntryDto' }),
      { id: [Number, IsInt()], name: [String, IsString()] },
    );
  const providers = [];
  for (let first = 1; first < count; first += PER_PROVIDER) {
    const provider = class {};
    Object.defineProperty(provider, 'name', {
      value: `CatalogProvider${first}`,
    });
    for (let n = first; n < Math.min(first + PER_PROVIDER, count); n++) {
      const input = sharedInput || inputDto(`CatalogGet${n}Dto`);
      const method = `get${n}`;
      provider.prototype[method] = (input) => ({ id: n, name: input.name });
      Reflect.decorate(
        [
          Operation({
            id: generatedId(n),
            input,
            ...(sharedOutput ? { output: sharedOutput } : {}),
            readOnly: true,
          }),
        ],
        provider.prototype,
        method,
        Object.getOwnPropertyDescriptor(provider.prototype, method),
      );
    }
    Reflect.decorate([Injectable()], provider);
    providers.push(provider);
  }
  return providers;
}

module.exports = { generatedId, generatedProviders, writeCatalogue };
