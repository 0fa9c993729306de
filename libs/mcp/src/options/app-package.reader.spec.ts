import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callerFileOf, readAppPackage } from './app-package.reader.js';
import { serverDefaults } from './server-identity.js';

/** A folder tree of files, for one test. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'app-package-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const roots: string[] = [];
afterEach(() => {
  roots
    .splice(0)
    .forEach((root) => rmSync(root, { recursive: true, force: true }));
});

function app(files: Record<string, string>): string {
  const root = tree(files);
  roots.push(root);
  return root;
}

describe('readAppPackage', () => {
  it('reads name and version of the package.json nearest to the source file', () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'outer', version: '1.0.0' }),
      'notes/package.json': JSON.stringify({ name: 'notes', version: '3.1.4' }),
      'notes/dist/src/app.module.js': '',
    });

    expect(readAppPackage(join(root, 'notes/dist/src/app.module.js'))).toEqual({
      name: 'notes',
      version: '3.1.4',
    });
  });

  it('takes a file: URL, as an ES module names its file', () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'esm-app', version: '2.0.0' }),
      'src/app.module.js': '',
    });

    expect(
      readAppPackage(pathToFileURL(join(root, 'src/app.module.js')).href),
    ).toEqual({ name: 'esm-app', version: '2.0.0' });
  });

  it('passes over package.json files without a name, unreadable or not JSON', () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'the-app', version: '0.3.0' }),
      'dist/package.json': '{ "type": "module" }',
      'dist/a/package.json': '{ not json',
      'dist/a/b/package.json': JSON.stringify({ name: '  ', version: '9.9.9' }),
      'dist/a/b/main.js': '',
    });

    expect(readAppPackage(join(root, 'dist/a/b/main.js'))).toEqual({
      name: 'the-app',
      version: '0.3.0',
    });
  });

  it('leaves out a missing or empty version', () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'no-version', version: '' }),
      'main.js': '',
    });

    expect(readAppPackage(join(root, 'main.js'))).toEqual({
      name: 'no-version',
    });
  });

  it('follows a symbolic link to the real file (a bin in node_modules/.bin)', () => {
    const root = app({
      'server/package.json': JSON.stringify({
        name: '@acme/server',
        version: '5.0.0',
      }),
      'server/dist/cli.js': '',
      'bin/package.json': JSON.stringify({ name: 'elsewhere' }),
    });
    symlinkSync(join(root, 'server/dist/cli.js'), join(root, 'bin/server'));

    expect(readAppPackage(join(root, 'bin/server'))).toEqual({
      name: '@acme/server',
      version: '5.0.0',
    });
  });

  it('never reads the working directory', () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'the-client', version: '7.0.0' }),
    });
    const cwd = process.cwd();
    process.chdir(root);
    try {
      expect(readAppPackage('relative/app.module.js').name).not.toBe(
        'the-client',
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('falls back to the main script when the source has no package.json above it', () => {
    // Under the test runner the main script is the runner's own worker.
    const found = readAppPackage(join(tmpdir(), 'nowhere', 'app.module.js'));

    expect(found.name).toBe(readAppPackage(process.argv[1]).name);
    expect(found.name).toBeDefined();
  });
});

describe('callerFileOf', () => {
  function configure(): string | undefined {
    return callerFileOf(configure);
  }

  it('names the file of the code that called the function', () => {
    expect(configure()).toBe(__filename);
  });
});

describe('serverDefaults', () => {
  it("is the package's name and version, whatever hosts the server", () => {
    const root = app({
      'package.json': JSON.stringify({ name: 'notes', version: '3.1.4' }),
      'app.module.js': '',
    });
    const source = join(root, 'app.module.js');

    expect(serverDefaults(source)).toEqual({
      serverName: 'notes',
      serverVersion: '3.1.4',
    });
  });
});
