import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { callTool, McpClients, type ToolOutcome } from '../support/mcp-clients';

/**
 * `nestjs-i18n` is an optional peer. An app that never uses i18n is laid out
 * in a folder of its own, as `npm i` leaves one: the built @nestops packages
 * copied into its node_modules (so that Node resolves their imports from
 * there), and what they and the app import linked beside them, but not
 * nestjs-i18n. Node cannot find nestjs-i18n from there, as in an app that
 * never installed it. The app is compiled there (strict,
 * `skipLibCheck: false`) and run as a process of its own.
 */

const root = join(__dirname, '../..');
const PACKAGES = ['operations', 'mcp'] as const;
const I18N = 'nestjs-i18n';
/** What the fixture app imports itself (and the types it compiles with). */
const APP_IMPORTS = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  'class-validator',
  'class-transformer',
  'reflect-metadata',
  'rxjs',
  '@types/node',
];

interface Manifest {
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** The installed folder of `name` as Node finds it from `from`, up the tree. */
function installed(from: string, name: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) {
      return realpathSync(candidate);
    }
    if (dirname(dir) === dir) {
      throw new Error(`${name} is not installed above ${from}`);
    }
  }
}

function link(folder: string, name: string, target: string): void {
  const path = join(folder, 'node_modules', name);
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, 'dir');
}

/** The app's folder: the packages and their imports, nestjs-i18n if asked. */
function layOut(withI18n: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'i18n-free-app-'));
  for (const name of APP_IMPORTS) {
    link(folder, name, installed(root, name));
  }
  for (const name of PACKAGES) {
    const source = join(root, 'libs', name);
    const target = join(folder, 'node_modules/@nestops', name);
    mkdirSync(target, { recursive: true });
    cpSync(join(source, 'package.json'), join(target, 'package.json'));
    cpSync(join(source, 'dist'), join(target, 'dist'), { recursive: true });
    const manifest = JSON.parse(
      readFileSync(join(source, 'package.json'), 'utf8'),
    ) as Manifest;
    for (const dep of Object.keys({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
    })) {
      const present = existsSync(join(folder, 'node_modules', dep));
      if (!present && !dep.startsWith('@nestops/') && dep !== I18N) {
        link(folder, dep, installed(source, dep));
      }
    }
  }
  if (withI18n) {
    link(folder, I18N, installed(root, I18N));
  }
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'i18n-free-app', private: true, type: 'module' }),
  );
  return folder;
}

/** Compiles the fixture app in `folder` as the app's own build would. */
function compile(folder: string): { status: number | null; output: string } {
  mkdirSync(join(folder, 'src'));
  cpSync(
    join(root, 'test/fixtures/i18n-free-app/main.ts'),
    join(folder, 'src/main.ts'),
  );
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2023',
        strict: true,
        strictPropertyInitialization: false,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        skipLibCheck: false,
        types: ['node'],
        rootDir: 'src',
        outDir: 'dist',
      },
      include: ['src'],
    }),
  );
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    { cwd: folder, encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface Started {
  readonly child: ChildProcess;
  readonly ready: { url: string; languages: string[]; fallback: string };
  readonly output: () => string;
}

/** `node dist/main.js` in `folder`, until it says it is listening. */
async function start(folder: string): Promise<Started> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = await new Promise<Started['ready']>((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /^READY (.+)$/m.exec(output)?.[1];
      if (line !== undefined) {
        done(JSON.parse(line) as Started['ready']);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      fail(new Error(`The app exited (${code}):\n${output}`)),
    );
  });
  return { child, ready, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
}

interface Transcript {
  readonly languages: string[];
  readonly fallback: string;
  readonly tools: unknown;
  readonly calls: Record<string, ToolOutcome>;
}

/** What MCP clients see of the running app: its tools, and a call of each kind. */
async function transcript(folder: string): Promise<Transcript> {
  const app = await start(folder);
  const clients = new McpClients(app.ready.url);
  try {
    const anonymous = await clients.v1({ language: 'zh-CN' });
    const alice = async (language?: string) => {
      const client = await clients.v1({ apiKey: 'alice-key', language });
      return (args: Record<string, unknown>) =>
        callTool(client, 'notes_create', args);
    };
    const aliceZh = await alice('zh-CN');
    const aliceEn = await alice();
    return {
      languages: app.ready.languages,
      fallback: app.ready.fallback,
      tools: (await anonymous.listTools()).tools,
      calls: {
        anonymous: await callTool(anonymous, 'notes_create', {
          text: 'hi',
          stars: 1,
        }),
        invalid: await aliceZh({ text: 7, stars: 0 }),
        taken: await aliceZh({ text: 'taken', stars: 1 }),
        created: await aliceEn({ text: 'hi', stars: 2 }),
      },
    };
  } finally {
    await clients.closeAll();
    await stop(app.child);
  }
}

describe('an app that does not install nestjs-i18n', () => {
  let without: string;
  let compiled: { status: number | null; output: string };

  beforeAll(() => {
    without = layOut(false);
    compiled = compile(without);
  }, 120_000);

  afterAll(() => {
    if (without) {
      rmSync(without, { recursive: true, force: true });
    }
  });

  it('cannot resolve nestjs-i18n from the packages, as when it was never installed', () => {
    for (const name of PACKAGES) {
      const fromPackage = createRequire(
        join(without, 'node_modules/@nestops', name, 'package.json'),
      );
      expect(() => fromPackage.resolve(I18N), name).toThrow(
        expect.objectContaining({ code: 'MODULE_NOT_FOUND' }),
      );
    }
  });

  it('type-checks strictly with skipLibCheck false', () => {
    expect(compiled.output).toBe('');
    expect(compiled.status).toBe(0);
  });

  it("starts, and answers in English with the library's own texts whatever the caller's language", async () => {
    const seen = await transcript(without);

    expect(seen.languages).toEqual(['en-US']);
    expect(seen.fallback).toBe('en-US');
    expect(seen.tools).toEqual([
      expect.objectContaining({ name: 'notes_create' }),
    ]);
    expect(seen.calls.anonymous).toMatchObject({
      isError: true,
      text: 'SECURITY_DENIED_003: Authentication is required.',
    });
    expect(seen.calls.invalid.isError).toBe(true);
    expect(seen.calls.invalid.text).toMatch(/^VALIDATION_INVALID_001: /);
    expect(seen.calls.invalid.text).toContain('text must be a string');
    expect(seen.calls.taken).toMatchObject({
      isError: true,
      text: 'BUSINESS_CONFLICT_001: That note exists.',
    });
    expect(seen.calls.created).toMatchObject({
      isError: false,
      structuredContent: { text: 'hi', author: 'alice' },
    });
  });

  it('answers exactly as the same app with nestjs-i18n installed and no I18nModule', async () => {
    const withI18n = layOut(true);
    try {
      cpSync(join(without, 'dist'), join(withI18n, 'dist'), {
        recursive: true,
      });
      const fromPackage = createRequire(
        join(withI18n, 'node_modules/@nestops/operations/package.json'),
      );
      expect(realpathSync(fromPackage.resolve(I18N))).toBe(
        realpathSync(require.resolve(I18N)),
      );

      expect(await transcript(without)).toEqual(await transcript(withI18n));
    } finally {
      rmSync(withI18n, { recursive: true, force: true });
    }
  });
});
