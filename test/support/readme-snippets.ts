import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '../..');
/** The app the blocks are files of: the quick start (docs/get-started/quick-start.md). */
const APP = join(ROOT, 'examples/quick-start');
/** The sample app, which `npm run typecheck` compiles where it is. */
const SAMPLE = join(ROOT, 'src');

/** One ```ts block of a README, as a file of the quick-start app. */
export interface Snippet {
  /** The README, relative to the repository. */
  readonly readme: string;
  /** 1 for the README's first ```ts block. */
  readonly number: number;
  /** The README line of the block's first code line. */
  readonly line: number;
  readonly code: string;
  /** Where the block sits in the app, relative to it (`src/cli.ts`). */
  readonly path: string;
}

/**
 * Put on the line before a ```ts block that cannot compile, with the reason;
 * the check leaves it out. No page has one today.
 */
export const NOT_COMPILED = /^<!-- not compiled: .+ -->$/;

/**
 * The ```ts blocks of `readme` (a README or a page of docs/), each placed in
 * the quick-start app: at the path its first line names (`// src/cli.ts`),
 * else at the path of the quick-start file it shows verbatim, else as a file
 * of its own in `src/`. A block after a `<!-- not compiled: why -->` line is
 * left out, and so is one that shows a file of the sample app (`src/`)
 * verbatim: that file is compiled with the sample.
 */
export function readmeSnippets(readme: string): Snippet[] {
  const lines = readFileSync(join(ROOT, readme), 'utf8').split('\n');
  const appFiles = filesUnder(join(APP, 'src'));
  const sampleFiles = filesUnder(SAMPLE);
  const snippets: Snippet[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[start])) {
      continue;
    }
    const end = lines.findIndex(
      (line, index) => index > start && /^```\s*$/.test(line),
    );
    if (end < 0) {
      throw new Error(
        `${readme}:${start + 1}: a \`\`\`ts block is never closed`,
      );
    }
    const before = lines.slice(0, start).findLast((line) => line.trim() !== '');
    if (before !== undefined && NOT_COMPILED.test(before.trim())) {
      start = end;
      continue;
    }
    const code = `${lines.slice(start + 1, end).join('\n')}\n`;
    if (sampleFiles.some((file) => readFileSync(file, 'utf8') === code)) {
      start = end;
      continue;
    }
    const number = snippets.length + 1;
    const named = /^\/\/ (\S+\.ts)\s*$/.exec(lines[start + 1])?.[1];
    const shown = appFiles.find((file) => readFileSync(file, 'utf8') === code);
    snippets.push({
      readme,
      number,
      line: start + 2,
      code,
      path:
        named ??
        (shown ? relative(APP, shown).split(sep).join('/') : undefined) ??
        `src/readme-snippet-${number}.ts`,
    });
    start = end;
  }
  return snippets;
}

/** What the compiler says of the blocks of one README, block by block. */
export interface SnippetDiagnostics {
  /** By block number: each error as `snippet line N: TSxxxx message`. */
  readonly bySnippet: ReadonlyMap<number, readonly string[]>;
  /** Errors in the app's own files or the options, with their file. */
  readonly elsewhere: readonly string[];
}

/**
 * The options of the check: strict, decorators as Nest apps compile them,
 * the packages resolved to their sources (`paths`), and relative imports written with or without `.js`, as either kind of app
 * writes them.
 */
export const SNIPPET_COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  strictPropertyInitialization: false,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  esModuleInterop: true,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
  // The packages' types as their sources declare them: no build needed.
  paths: {
    '@nestops/operations': [join(ROOT, 'libs/operations/src/index.ts')],
    '@nestops/operations/*': [join(ROOT, 'libs/operations/src/*/index.ts')],
    '@nestops/mcp': [join(ROOT, 'libs/mcp/src/index.ts')],
    '@nestops/mcp/*': [join(ROOT, 'libs/mcp/src/*/index.ts')],
    '@nestops/typeorm': [join(ROOT, 'libs/typeorm/src/index.ts')],
  },
};

/** The libraries' sources: type-checked by `npm run typecheck`, not here. */
const LIBS = join(ROOT, 'libs') + sep;

/** Parsed files shared by the checks of every README. */
const parsed = new Map<string, ts.SourceFile>();

/**
 * Type-checks the blocks of one README together, as files of the
 * quick-start app (on top of its own files), against the packages' sources.
 */
export function checkSnippets(
  snippets: readonly Snippet[],
): SnippetDiagnostics {
  const virtual = new Map(
    snippets.map((snippet) => [join(APP, snippet.path), snippet] as const),
  );
  const host = ts.createCompilerHost(SNIPPET_COMPILER_OPTIONS);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const directoryExists = (dir: string) =>
    existsSync(dir) ||
    [...virtual.keys()].some((file) => file.startsWith(`${dir}${sep}`));
  host.fileExists = (file) => virtual.has(file) || fileExists(file);
  host.readFile = (file) => virtual.get(file)?.code ?? readFile(file);
  host.directoryExists = directoryExists;
  host.getSourceFile = (file, languageVersion) => {
    const snippet = virtual.get(file);
    if (snippet) {
      return ts.createSourceFile(file, snippet.code, languageVersion, true);
    }
    let source = parsed.get(file);
    if (!source) {
      const text = readFile(file);
      if (text === undefined) {
        return undefined;
      }
      source = ts.createSourceFile(file, text, languageVersion, true);
      parsed.set(file, source);
    }
    return source;
  };
  const program = ts.createProgram({
    rootNames: [...virtual.keys()],
    options: SNIPPET_COMPILER_OPTIONS,
    host,
  });
  const bySnippet = new Map<number, string[]>(
    snippets.map((snippet) => [snippet.number, []]),
  );
  const elsewhere: string[] = [];
  // The app's files and the blocks; the libraries' own sources are
  // checked by `npm run typecheck`, and checking them again took most of
  // the time.
  const checkedFiles = program
    .getSourceFiles()
    .filter(
      (file) =>
        !file.isDeclarationFile &&
        !file.fileName.includes(`${sep}node_modules${sep}`) &&
        !file.fileName.startsWith(LIBS),
    );
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checkedFiles.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ];
  for (const diagnostic of diagnostics) {
    const message = `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    const file = diagnostic.file;
    const snippet = file && virtual.get(file.fileName);
    const at =
      file && diagnostic.start !== undefined
        ? file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : undefined;
    if (snippet) {
      bySnippet.get(snippet.number)?.push(`snippet line ${at}: ${message}`);
    } else {
      elsewhere.push(
        file ? `${relative(ROOT, file.fileName)}:${at}: ${message}` : message,
      );
    }
  }
  return { bySnippet, elsewhere };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? filesUnder(path)
      : path.endsWith('.ts')
        ? [path]
        : [];
  });
}
