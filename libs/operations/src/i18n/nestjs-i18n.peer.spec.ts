import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import * as nestjsI18n from 'nestjs-i18n';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isMissingPackage,
  loadNestjsI18n,
  type NestjsI18nTokens,
} from './nestjs-i18n.peer.js';

// The tokens the library looks up are nestjs-i18n's own, as its types say.
const tokens: NestjsI18nTokens = nestjsI18n;

/** Real `require`s from folders laid out as apps would be. */
describe('loadNestjsI18n', () => {
  const root = mkdtempSync(join(tmpdir(), 'nestjs-i18n-peer-'));
  const requireFrom = (folder: string) =>
    createRequire(join(root, folder, 'main.js'));
  const loadFrom = (folder: string) => () => requireFrom(folder)('nestjs-i18n');

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is the app's nestjs-i18n where it is installed: its very I18nService class", () => {
    const found = loadNestjsI18n();

    expect(found?.I18nService).toBe(tokens.I18nService);
    expect(found?.I18N_OPTIONS).toBe(tokens.I18N_OPTIONS);
  });

  it('is undefined where nestjs-i18n is not installed', () => {
    mkdirSync(join(root, 'without/node_modules'), { recursive: true });

    expect(() => requireFrom('without').resolve('nestjs-i18n')).toThrow();
    expect(loadNestjsI18n(loadFrom('without'))).toBeUndefined();
  });

  it('throws, naming what is missing, when nestjs-i18n is installed but does not load', () => {
    const broken = join(root, 'broken/node_modules/nestjs-i18n');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'package.json'), '{"main":"index.js"}');
    writeFileSync(join(broken, 'index.js'), "require('i18n-missing-dep');");

    expect(() => loadNestjsI18n(loadFrom('broken'))).toThrow(
      /Cannot find module 'i18n-missing-dep'/,
    );
  });
});

describe('isMissingPackage', () => {
  const missing = (name: string): unknown => {
    try {
      createRequire(__filename)(name);
    } catch (error) {
      return error;
    }
    throw new Error(`${name} is installed`);
  };

  it("is Node's own error for that very package", () => {
    expect(
      isMissingPackage(missing('no-such-package-x'), 'no-such-package-x'),
    ).toBe(true);
  });

  it("is that error from another realm too (Jest's require runs modules in a vm context)", () => {
    const error = runInNewContext(
      "Object.assign(new Error(\"Cannot find module 'nestjs-i18n' from 'x.js'\"), { code: 'MODULE_NOT_FOUND' })",
    ) as unknown;

    expect(error instanceof Error).toBe(false);
    expect(isMissingPackage(error, 'nestjs-i18n')).toBe(true);
  });

  it('is not the error of another package, even one whose name begins the same', () => {
    expect(isMissingPackage(missing('nestjs-i18n-extra'), 'nestjs-i18n')).toBe(
      false,
    );
    expect(isMissingPackage(missing('no-such-package-x'), 'nestjs-i18n')).toBe(
      false,
    );
  });

  it('is not another failure that names the package', () => {
    expect(
      isMissingPackage(
        new Error("Cannot find module 'nestjs-i18n'"),
        'nestjs-i18n',
      ),
    ).toBe(false);
    expect(
      isMissingPackage("Cannot find module 'nestjs-i18n'", 'nestjs-i18n'),
    ).toBe(false);
  });
});
