import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, string | Record<Door, Target>>;
  readonly files: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly peerDependenciesMeta?: Record<
    string,
    { readonly optional?: boolean }
  >;
  readonly engines: { readonly node: string };
  readonly sideEffects: boolean;
}

type Door = 'import' | 'require';
interface Target {
  readonly types: string;
  readonly default: string;
}

const PACKAGES = ['operations', 'mcp', 'typeorm'] as const;

/** The entry points of each package's exports map. */
const ENTRIES: Record<(typeof PACKAGES)[number], string[]> = {
  operations: ['.', './testing', './internal', './package.json'],
  mcp: ['.', './testing', './cli', './internal', './package.json'],
  typeorm: ['.', './package.json'],
};

/** What each package takes from the app, beyond Nest, reflect-metadata and rxjs. */
const OWN_PEERS: Record<(typeof PACKAGES)[number], string[]> = {
  operations: ['class-validator', 'class-transformer'],
  mcp: ['class-validator', 'class-transformer', '@nestops/operations'],
  typeorm: [
    '@nestops/operations',
    'typeorm',
    '@nestjs/typeorm',
    'nestjs-cls',
    '@nestjs-cls/transactional',
    '@nestjs-cls/transactional-adapter-typeorm',
  ],
};
const root = join(__dirname, '../..');

function manifest(name: string): Manifest {
  return JSON.parse(
    readFileSync(join(root, 'libs', name, 'package.json'), 'utf8'),
  ) as Manifest;
}

/** What `npm pack` would put in the tarball (the libraries are built by `pretest`). */
function packedFiles(name: string): string[] {
  const output = execFileSync(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts'],
    { cwd: join(root, 'libs', name), encoding: 'utf8' },
  );
  const [pack] = JSON.parse(output) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path).sort();
}

/** Every file an `exports` entry points to. */
function exportTargets(exports: Manifest['exports']): string[] {
  return Object.values(exports).flatMap((target) =>
    typeof target === 'string'
      ? [target]
      : Object.values(target).flatMap((door) => Object.values(door)),
  );
}

describe.each(PACKAGES)('the @nestops/%s tarball', (name) => {
  const files = packedFiles(name);
  const pkg = manifest(name);

  it('holds only compiled files, declarations and their maps, README.md, LICENSE and package.json', () => {
    const allowed =
      /^(dist\/(cjs|esm)\/.+\.(js|d\.ts)(\.map)?|dist\/esm\/package\.json|README\.md|LICENSE|package\.json)$/;

    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'package.json']),
    );
    expect(
      files.filter(
        (file) =>
          /spec|test\/|fixtures|\.ts$/.test(file) && !file.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });

  it('has a declaration and both maps for every compiled module', () => {
    const modules = files.filter(
      (file) => file.startsWith('dist/cjs/') && file.endsWith('.js'),
    );

    expect(modules.length).toBeGreaterThan(3);
    for (const module of modules) {
      const base = module.slice(0, -'.js'.length);
      expect(files).toEqual(
        expect.arrayContaining([
          `${base}.js.map`,
          `${base}.d.ts`,
          `${base}.d.ts.map`,
        ]),
      );
    }
  });

  it('has an ES module face of the same declarations, whose only code is one door per entry point', () => {
    const declarations = (dir: string) =>
      files
        .filter((file) => file.startsWith(dir) && /\.d\.ts(\.map)?$/.test(file))
        .map((file) => file.slice(dir.length));
    const doors = Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'string' ? [] : [target.import.default.slice(2)],
    );

    expect(declarations('dist/esm/')).toEqual(declarations('dist/cjs/'));
    expect(
      files.filter(
        (file) => file.startsWith('dist/esm/') && file.endsWith('.js'),
      ),
    ).toEqual(doors.sort());
    expect(files).toContain('dist/esm/package.json');
  });

  it('packs every file its exports map points to, with types first', () => {
    for (const target of exportTargets(pkg.exports)) {
      expect(files).toContain(target.replace(/^\.\//, ''));
    }
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target !== 'string') {
        expect(Object.keys(target), entry).toEqual(['import', 'require']);
        for (const door of Object.values(target)) {
          expect(Object.keys(door), entry).toEqual(['types', 'default']);
        }
      }
    }
    expect(Object.keys(pkg.exports)).toEqual(ENTRIES[name]);
  });

  it('takes Nest and its companions from the app (peers over Nest 11 and 12), and Node 22.12+', () => {
    for (const peer of [
      '@nestjs/common',
      '@nestjs/core',
      'reflect-metadata',
      'rxjs',
      ...OWN_PEERS[name],
    ]) {
      expect(pkg.peerDependencies[peer], peer).toBeDefined();
      expect(pkg.dependencies?.[peer], peer).toBeUndefined();
    }
    for (const nest of ['@nestjs/common', '@nestjs/core']) {
      expect(pkg.peerDependencies[nest]).toBe('^11.1.4 || ^12.0.0');
    }
    expect(pkg.engines.node).toBe('>=22.12');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.version).toMatch(/^0\.\d+\.\d+$/);
  });
});

/**
 * The declaration files reachable from an entry point's, by relative imports
 * (read by TypeScript, so not the examples in doc comments).
 */
function reachableDeclarations(name: string, entry: string): string[] {
  const dist = join(root, 'libs', name);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) {
      return;
    }
    seen.add(file);
    const text = readFileSync(join(dist, file), 'utf8');
    const specifiers = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'));
    for (const specifier of specifiers) {
      const target = join(dirname(file), specifier).replace(/\.js$/, '');
      visit(
        existsSync(join(dist, `${target}.d.ts`))
          ? `${target}.d.ts`
          : join(target, 'index.d.ts'),
      );
    }
  };
  visit(entry.replace(/^\.\//, ''));
  return [...seen];
}

/** Whether `node` has a doc comment with text (a lone `@publicApi` is no doc). */
function hasDocComment(node: ts.Node): boolean {
  return ts
    .getJSDocCommentsAndTags(node)
    .some((doc) => ts.isJSDoc(doc) && Boolean(doc.comment));
}

/**
 * What each entry point's declarations export without a doc comment: the
 * exported names, and `Name.member` for each public member (not the
 * constructor) of an exported class or interface.
 */
function undocumentedExports(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  return new Map(
    files.map((file) => {
      const entry = checker.getSymbolAtLocation(program.getSourceFile(file)!);
      const missing: string[] = [];
      for (const exported of checker.getExportsOfModule(entry!)) {
        const symbol =
          exported.flags & ts.SymbolFlags.Alias
            ? checker.getAliasedSymbol(exported)
            : exported;
        const declarations = symbol.declarations ?? [];
        if (!declarations.some(hasDocComment)) {
          missing.push(exported.name);
        }
        for (const declaration of declarations) {
          if (
            !ts.isClassDeclaration(declaration) &&
            !ts.isInterfaceDeclaration(declaration)
          ) {
            continue;
          }
          for (const member of declaration.members) {
            const hidden =
              ts.getCombinedModifierFlags(member as ts.Declaration) &
              (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
            if (
              !ts.isConstructorDeclaration(member) &&
              !hidden &&
              !hasDocComment(member)
            ) {
              missing.push(
                `${exported.name}.${member.name?.getText() ?? '[index]'}`,
              );
            }
          }
        }
      }
      return [file, missing];
    }),
  );
}

describe.each(PACKAGES)('the public types of @nestops/%s', (name) => {
  const pkg = manifest(name);
  /** Each declaration file reachable from an entry point, with its text. */
  const declarations = () =>
    Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'string'
        ? []
        : Object.values(target).flatMap((door) =>
            reachableDeclarations(name, door.types).map((file) => ({
              file: `${door.types} > ${file}`,
              text: readFileSync(join(root, 'libs', name, file), 'utf8'),
            })),
          ),
    );

  it('name no internals of Nest, class-validator or class-transformer (nor the adapters that read them)', () => {
    for (const { file, text } of declarations()) {
      expect(text, file).not.toMatch(
        /nest-internals|\/internals\/|@nestjs\/[a-z-]+\/|class-(validator|transformer)\//,
      );
    }
  });

  it("document every export of each entry point, and each public member of its classes and interfaces, in both doors' declarations", () => {
    const files = Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'string'
        ? []
        : Object.values(target).map((door) =>
            join(root, 'libs', name, door.types),
          ),
    );
    const undocumented = undocumentedExports(files);

    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const [file, missing] of undocumented) {
      expect(missing, file).toEqual([]);
    }
  });

  it('import nothing from nestjs-i18n, an optional peer (an app without it type-checks with skipLibCheck false)', () => {
    const files = declarations();

    expect(files.length).toBeGreaterThan(0);
    for (const { file, text } of files) {
      // Any module specifier: `from '…'`, `import('…')`, `/// <reference types="…" />`.
      expect(text, file).not.toMatch(/(['"])nestjs-i18n(\/[^'"]*)?\1/);
    }
  });

  it('import nothing from @opentelemetry/api, an optional peer (an app without it type-checks with skipLibCheck false)', () => {
    for (const { file, text } of declarations()) {
      expect(text, file).not.toMatch(/(['"])@opentelemetry\/api(\/[^'"]*)?\1/);
    }
  });

  it('import nothing from ioredis, an optional peer (an app without it type-checks with skipLibCheck false)', () => {
    for (const { file, text } of declarations()) {
      expect(text, file).not.toMatch(/(['"])ioredis(\/[^'"]*)?\1/);
    }
  });
});

describe.each(PACKAGES)('@nestops/%s at run time', (name) => {
  it('gives `import` and `require` the very same exports (one copy of every class)', () => {
    const pkg = manifest(name);
    for (const entry of Object.keys(pkg.exports)) {
      if (entry === './package.json') {
        continue;
      }
      const specifier = `${pkg.name}${entry.slice(1)}`;
      const script = `
        import { createRequire } from 'node:module';
        const esm = await import(${JSON.stringify(specifier)});
        const cjs = createRequire(import.meta.url)(${JSON.stringify(specifier)});
        const names = Object.keys(cjs).filter((n) => n !== '__esModule');
        const same = names.filter((n) => esm[n] === cjs[n]);
        console.log(JSON.stringify({ names, same, esm: Object.keys(esm) }));
      `;
      const out = JSON.parse(
        execFileSync(
          process.execPath,
          ['--input-type=module', '--eval', script],
          { cwd: root, encoding: 'utf8' },
        ),
      ) as { names: string[]; same: string[]; esm: string[] };

      expect(out.names.length, specifier).toBeGreaterThan(0);
      expect(out.same, specifier).toEqual(out.names);
      expect(out.esm.sort(), specifier).toEqual([...out.names].sort());
    }
  });
});

describe('the packages together', () => {
  it('share one scope and version, and mcp and typeorm take operations from the app by its published name', () => {
    const operations = manifest('operations');
    expect(operations.name).toBe('@nestops/operations');
    for (const name of ['mcp', 'typeorm']) {
      const pkg = manifest(name);
      expect(pkg.name).toBe(`@nestops/${name}`);
      expect(pkg.version).toBe(operations.version);
      // A peer, so that an app has one copy of it.
      expect(pkg.peerDependencies['@nestops/operations']).toBe(
        `^${operations.version}`,
      );
      // mcp: the command line's argument parser (CommonJS; 15 is ESM-only)
      // and the JWT verifier's (ES module, loaded on the first token checked)
      expect(pkg.dependencies).toEqual(
        name === 'mcp' ? { commander: '^14.0.3', jose: '^6.2.18' } : undefined,
      );
    }
  });

  it('keep TypeORM and nestjs-cls out of apps that do not install @nestops/typeorm', () => {
    for (const name of ['operations', 'mcp']) {
      const pkg = manifest(name);
      // An optional peer is used where the app installs it, never installed for it.
      const optional = pkg.peerDependenciesMeta ?? {};
      const needs = Object.keys({
        ...pkg.dependencies,
        ...pkg.peerDependencies,
      }).filter((dep) => optional[dep]?.optional !== true);
      expect(
        needs.filter((dep) => /typeorm|nestjs-cls/.test(dep)),
        name,
      ).toEqual([]);
    }
  });
});
